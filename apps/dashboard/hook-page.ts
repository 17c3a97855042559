import { activityChart, recentDeliveries } from './activity-chart.js';
import { ApiError } from './api-client.js';
import type { HookRecord } from './api-types.js';
import { backfillsPanel } from './backfills-panel.js';
import { confirmAction } from './confirm-dialog.js';
import { deliveriesPanel } from './deliveries-view.js';
import { el, field } from './dom.js';
import { poll } from './polling.js';
import { formatCount, formatTime, hookLabel, summarizeFilters } from './format.js';
import type { View, ViewContext } from './view.js';

// New deliveries and attempts show up within this long, without a reload.
const POLL_MS = 2_000;

/** One hook: its definition, editing, enabling, deleting, evaluating a block, and its deliveries live. */
export function hookView(context: ViewContext, uuid: string): View {
  const { api } = context;
  const title = el('h1', { id: 'hook-title', tabindex: -1 }, 'Hook');
  const summary = el('div', { class: 'actions' });
  const definition = el('div');
  const chart = el('div', {}, el('p', { class: 'hint' }, 'Reading the last hour…'));
  const deliveries = deliveriesPanel(context, uuid, explainRefusal);
  const backfills = backfillsPanel(context, uuid);
  const nameInput = el('input', { id: 'hook-name', name: 'name', required: true, maxlength: 256 });
  const urlInput = el('input', { id: 'hook-url', name: 'url', type: 'url', required: true, maxlength: 2048 });
  const blockInput = el('input', {
    id: 'evaluate-block',
    name: 'block',
    required: true,
    autocomplete: 'off',
    'aria-describedby': 'evaluate-help',
  });
  let hook: HookRecord | undefined;
  let stopped = false;

  const edit = el(
    'form',
    { class: 'inline', 'aria-labelledby': 'edit-title' },
    field('hook-name', 'Name', nameInput),
    field('hook-url', 'Webhook URL', urlInput),
    el('button', { type: 'submit' }, 'Save'),
  );
  edit.addEventListener('submit', (event) => {
    event.preventDefault();
    void save();
  });
  const evaluate = el(
    'form',
    { class: 'inline', 'aria-labelledby': 'evaluate-title' },
    field('evaluate-block', 'Block height or index block hash', blockInput),
    el('button', { type: 'submit' }, 'Evaluate'),
  );
  evaluate.addEventListener('submit', (event) => {
    event.preventDefault();
    void evaluateBlock();
  });

  const element = el(
    'div',
    { class: 'hook-page stack' },
    el('p', {}, el('a', { href: '#/hooks' }, '← All hooks')),
    el('section', { 'aria-labelledby': 'hook-title' }, title, summary, definition),
    el(
      'div',
      { class: 'grid' },
      el(
        'section',
        { class: 'card', 'aria-labelledby': 'edit-title' },
        el('h2', { id: 'edit-title' }, 'Edit'),
        edit,
      ),
      el(
        'section',
        { class: 'card', 'aria-labelledby': 'evaluate-title' },
        el('h2', { id: 'evaluate-title' }, 'Evaluate a block'),
        evaluate,
        el(
          'p',
          { id: 'evaluate-help', class: 'hint' },
          'Matches one archived block against this hook and delivers what matches, without changing its counters.',
        ),
      ),
    ),
    el(
      'section',
      { class: 'card', 'aria-labelledby': 'activity-title' },
      el('h2', { id: 'activity-title' }, 'Activity in the last hour'),
      chart,
    ),
    backfills.element,
    deliveries.element,
  );

  async function load(): Promise<void> {
    try {
      const now = Date.now();
      const [record, recent] = await Promise.all([
        api.get<HookRecord>(`/me/${uuid}`),
        recentDeliveries(api, uuid, now),
        deliveries.refresh(),
        backfills.refresh(),
      ]);
      if (stopped) return;
      const first = hook === undefined;
      if (JSON.stringify(record) !== JSON.stringify(hook)) showHook(record);
      if (first) {
        nameInput.value = record.definition.name;
        urlInput.value = record.definition.action.url;
      }
      chart.replaceChildren(activityChart(recent.deliveries, now, recent.partial));
    } catch (error) {
      // A hook deleted elsewhere will not come back: stop asking.
      if (error instanceof ApiError && error.status === 404) polling.stop();
      context.showError(error);
    }
  }

  function showHook(record: HookRecord): void {
    hook = record;
    const { status: s, definition: d } = record;
    title.textContent = hookLabel(record);
    document.title = `${hookLabel(record)} · stackhooks`;
    const interruption = record.delivery?.interruption;
    const remove = el('button', { type: 'button', class: 'danger' }, 'Delete');
    remove.addEventListener('click', () => void deleteHook());
    const hadFocus = summary.contains(document.activeElement)
      ? (document.activeElement as HTMLElement).dataset.focusKey
      : undefined;
    summary.replaceChildren(
      el('span', { class: `badge ${s.status}` }, s.status),
      el('span', {}, s.enabled ? 'enabled' : 'disabled'),
      ...toggles(record),
      remove,
    );
    if (hadFocus) summary.querySelector<HTMLElement>(`[data-focus-key="${hadFocus}"]`)?.focus();
    definition.replaceChildren(
      el(
        'dl',
        { class: 'facts' },
        fact('UUID', record.uuid),
        fact('Webhook URL', d.action.url),
        fact('Network', `${d.chain} ${d.network}`),
        fact('Filters', summarizeFilters(d.filters.events)),
        fact('Options', d.options && Object.keys(d.options).length > 0 ? JSON.stringify(d.options) : 'none'),
        fact('Created', formatTime(s.created_at * 1000)),
        fact('Blocks evaluated', formatCount(s.evaluated_block_count)),
        fact('Occurrences', formatCount(s.occurrence_count)),
        fact(
          'Last occurrence',
          s.last_occurrence_block_height === null
            ? 'never'
            : `block ${formatCount(s.last_occurrence_block_height)}, ${formatTime((s.last_occurrence_at ?? 0) * 1000)}`,
        ),
        interruption
          ? fact(
              'Interrupted',
              `${interruption.reason}. Resume it to be sent every block it missed from block ${formatCount(interruption.first_missed_block_height)}, in order; or enable it from the tip and backfill what it skipped.`,
            )
          : null,
      ),
      el(
        'details',
        {},
        el('summary', {}, 'The definition as JSON'),
        el('pre', { tabindex: 0 }, JSON.stringify(d, null, 2)),
      ),
    );
  }

  // An interrupted hook is enabled one of two ways: resumed from the block it missed first, or from
  // the tip (what it skipped is then offered as a backfill).
  function toggles(record: HookRecord): HTMLElement[] {
    const missed = record.delivery?.interruption?.first_missed_block_height;
    const button = (label: string, focusKey: string, className: string, act: () => Promise<unknown>) =>
      el(
        'button',
        { type: 'button', class: className, 'data-focus-key': focusKey, onclick: () => void act() },
        label,
      );
    if (record.status.enabled) return [button('Disable', 'toggle', '', () => setEnabled(false))];
    if (record.status.status !== 'interrupted' || missed === undefined)
      return [button('Enable', 'toggle', '', () => setEnabled(true))];
    return [
      button(`Resume from block ${formatCount(missed)}`, 'toggle', '', () => setEnabled(true, true)),
      button('Enable from the tip', 'from-tip', 'secondary', async () => {
        if (!(await setEnabled(true))) return;
        backfills.offer(missed);
        context.announce(
          `The hook is enabled from the tip. It skipped the blocks from ${formatCount(missed)} on: start a backfill from there (filled in below) to send them.`,
        );
      }),
    ];
  }

  function explainRefusal(refusal: ApiError): string {
    const { status, delivery } = hook ?? {};
    if (delivery?.resuming && status?.enabled)
      return `this hook is being sent the blocks it missed, in order (now at block ${formatCount(delivery.resuming.next_block_height)}). Redeliver once it has caught up.`;
    if (status?.status === 'interrupted' && !status.enabled)
      return 'this hook is interrupted, and a payload sent now would arrive after newer blocks. Resume the hook (the button at the top) to be sent every block it missed, in order.';
    return `${refusal.message}.`;
  }

  async function setEnabled(value: boolean, resume = false): Promise<boolean> {
    try {
      await api.send(
        'PATCH',
        `/me/${uuid}/enabled`,
        resume ? { enabled: value, resume } : { enabled: value },
      );
      context.announce(
        resume
          ? 'The hook is resuming from the block it missed first.'
          : `The hook is ${value ? 'enabled' : 'disabled'}.`,
      );
      await load();
      return true;
    } catch (error) {
      context.showError(error);
      return false;
    }
  }

  async function save(): Promise<void> {
    if (!hook) return;
    try {
      const action = { ...hook.definition.action, url: urlInput.value.trim() };
      await api.send('PATCH', `/me/${uuid}`, { name: nameInput.value.trim(), action });
      context.clearError();
      context.announce('Saved.');
      await load();
    } catch (error) {
      context.showError(error);
    }
  }

  async function deleteHook(): Promise<void> {
    if (!hook) return;
    const confirmed = await confirmAction(
      `Delete ${hookLabel(hook)}?`,
      'It stops at once, and its deliveries go with it. This cannot be undone.',
      'Delete hook',
    );
    if (!confirmed) return;
    try {
      await api.send('DELETE', `/me/${uuid}`);
      context.announce(`${hookLabel(hook)} was deleted.`, true);
      location.hash = '#/hooks';
    } catch (error) {
      context.showError(error);
    }
  }

  async function evaluateBlock(): Promise<void> {
    const raw = blockInput.value.trim();
    const target = /^\d+$/.test(raw) ? { block_height: Number(raw) } : { index_block_hash: raw };
    try {
      await api.send('POST', `/me/${uuid}/evaluate`, target);
      context.clearError();
      context.announce(`Block ${raw} is being evaluated; if it matches, its delivery appears below.`);
      await load();
    } catch (error) {
      // The API names its field; the form has one box for both, so say what the box takes.
      const refusedInput = error instanceof ApiError && error.status === 400;
      context.showError(
        refusedInput
          ? new Error(
              `"${raw}" is not a block height (a whole number) or an index block hash (64 hex digits, 0x optional).`,
            )
          : error,
      );
    }
  }

  const polling = poll(load, POLL_MS);
  return {
    element,
    title: 'Hook',
    stop() {
      stopped = true;
      polling.stop();
    },
  };
}

function fact(term: string, value: string): HTMLElement[] {
  return [el('dt', {}, term), el('dd', {}, value)];
}
