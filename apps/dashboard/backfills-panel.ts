import { ApiError, type FieldProblem } from './api-client.js';
import type { BackfillRecord } from './api-types.js';
import { confirmAction } from './confirm-dialog.js';
import { el, field } from './dom.js';
import { formatCount, formatTime } from './format.js';
import { keptRows } from './kept-rows.js';
import type { ViewContext } from './view.js';

/** The backfills panel: its element, `refresh` to read the list again (the page polls it), and `offer` to fill in a start height. */
export type BackfillsPanel = {
  element: HTMLElement;
  refresh(): Promise<void>;
  offer(fromHeight: number): void;
};

// The API's names of the form's fields, and what the form calls them.
const LABELS: Record<string, string> = { from_block_height: 'From height', to_block_height: 'To height' };

/** A hook's backfills: a form to start one over a range of archived blocks, and each one's progress, with cancel. */
export function backfillsPanel(context: ViewContext, uuid: string): BackfillsPanel {
  const { api } = context;
  const from = numberInput('backfill-from', true);
  const to = numberInput('backfill-to', false);
  const fromProblem = el('p', { id: 'backfill-from-problem', class: 'problem' });
  const toProblem = el('p', { id: 'backfill-to-problem', class: 'problem' });
  from.setAttribute('aria-describedby', 'backfill-from-problem');
  to.setAttribute('aria-describedby', 'backfill-to-help backfill-to-problem');
  const title = el('h2', { id: 'backfills-title', tabindex: -1 }, 'Backfills');
  const form = el(
    'form',
    { class: 'inline top', 'aria-labelledby': 'backfills-title' },
    field('backfill-from', 'From height', from, fromProblem),
    field(
      'backfill-to',
      'To height (optional)',
      to,
      el('span', { id: 'backfill-to-help', class: 'hint' }, 'Empty: up to the chain tip.'),
      toProblem,
    ),
    el('button', { type: 'submit' }, 'Start backfill'),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void start();
  });
  const caption = el('caption', {}, 'Loading backfills…');
  const body = el('tbody');
  const showRows = keptRows<BackfillRecord>(body, backfillRow);
  let shown = '';

  const element = el(
    'section',
    { class: 'card', 'aria-labelledby': 'backfills-title' },
    title,
    el(
      'p',
      { class: 'hint' },
      'A backfill evaluates this hook over a range of archived blocks, enabled or not, and sends each block that matches, in ascending height, with the stackhooks-backfill-id header. The hook’s counters do not change.',
    ),
    form,
    el(
      'table',
      { class: 'cards backfills' },
      caption,
      el(
        'thead',
        {},
        el(
          'tr',
          {},
          ...[
            'State',
            'Range',
            'Blocks scanned',
            'Blocks matched',
            'Payloads delivered',
            'Rate',
            'Started',
            'Finished',
            'Action',
          ].map((name) => el('th', { scope: 'col' }, name)),
        ),
      ),
      body,
    ),
  );

  async function refresh(): Promise<void> {
    const list = await api.get<{ total: number; results: BackfillRecord[] }>(`/me/${uuid}/backfills`);
    const json = JSON.stringify(list);
    if (json === shown) return;
    shown = json;
    caption.textContent =
      list.total === 0
        ? 'No backfills yet.'
        : `${formatCount(list.total)} backfill${list.total === 1 ? '' : 's'}, newest first`;
    showRows(list.results);
  }

  async function start(): Promise<void> {
    showProblems([]);
    const range: Record<string, number> = { from_block_height: Number(from.value) };
    if (to.value.trim() !== '') range.to_block_height = Number(to.value);
    try {
      const backfill = await api.send<BackfillRecord>('POST', `/me/${uuid}/backfills`, range);
      context.clearError();
      context.announce(
        `A backfill of blocks ${formatCount(backfill.from_block_height)} to ${formatCount(backfill.to_block_height)} was started; its progress shows below.`,
      );
      await refresh();
    } catch (error) {
      const fields = error instanceof ApiError && error.status === 400 ? error.fields : [];
      const known = fields.filter((problem) => problem.field in LABELS);
      if (known.length === 0) {
        context.showError(error);
        return;
      }
      showProblems(known);
      context.showError(new Error(`The backfill was not started: ${known.map(describeProblem).join(' ')}`));
    }
  }

  function showProblems(problems: FieldProblem[]): void {
    for (const [input, problem, field] of [
      [from, fromProblem, 'from_block_height'],
      [to, toProblem, 'to_block_height'],
    ] as const) {
      const found = problems.find((p) => p.field === field);
      problem.textContent = found ? describeProblem(found) : '';
      if (found) input.setAttribute('aria-invalid', 'true');
      else input.removeAttribute('aria-invalid');
    }
    const first = problems[0]?.field;
    if (first === 'from_block_height') from.focus();
    else if (first === 'to_block_height') to.focus();
  }

  function backfillRow(backfill: BackfillRecord): HTMLTableRowElement {
    const finished = ['done', 'cancelled', 'failed'].includes(backfill.state);
    const range = `${formatCount(backfill.from_block_height)} to ${formatCount(backfill.to_block_height)}`;
    const length = backfill.to_block_height - backfill.from_block_height + 1;
    const beyond = backfill.beyond_archive;
    const cancel = finished
      ? '—'
      : el(
          'button',
          {
            type: 'button',
            class: 'secondary',
            'data-focus-key': `cancel-${backfill.id}`,
            'aria-label': `Cancel the backfill of blocks ${range}`,
            onclick: () => void cancelBackfill(backfill, range),
          },
          'Cancel',
        );
    return el(
      'tr',
      { 'data-backfill': backfill.id },
      el(
        'td',
        { 'data-label': 'State' },
        el('span', { class: `badge ${backfill.state}` }, backfill.state),
        backfill.reason ? el('div', { class: 'hint' }, backfill.reason) : null,
      ),
      el(
        'td',
        { 'data-label': 'Range' },
        range,
        beyond
          ? el(
              'div',
              { class: 'hint' },
              `${formatCount(beyond.from_block_height)} to ${formatCount(beyond.to_block_height)} were above the archive`,
            )
          : null,
      ),
      el(
        'td',
        { 'data-label': 'Blocks scanned' },
        `${formatCount(backfill.blocks_scanned)} of ${formatCount(length)}`,
        backfill.blocks_missing > 0
          ? el('div', { class: 'hint' }, `${formatCount(backfill.blocks_missing)} not in the archive`)
          : null,
      ),
      el('td', { 'data-label': 'Blocks matched' }, formatCount(backfill.blocks_matched)),
      el(
        'td',
        { 'data-label': 'Payloads delivered' },
        `${formatCount(backfill.payloads_delivered)} of ${formatCount(backfill.payloads_queued)}`,
        backfill.payloads_failed > 0
          ? el('div', { class: 'hint' }, `${formatCount(backfill.payloads_failed)} failed`)
          : null,
      ),
      el(
        'td',
        { 'data-label': 'Rate' },
        backfill.blocks_per_second === null ? '—' : `${backfill.blocks_per_second} blocks/s`,
      ),
      el(
        'td',
        { 'data-label': 'Started' },
        backfill.started_at === null ? 'not yet' : formatTime(backfill.started_at),
      ),
      el('td', { 'data-label': 'Finished' }, formatTime(backfill.finished_at)),
      el('td', { 'data-label': 'Action' }, cancel),
    );
  }

  async function cancelBackfill(backfill: BackfillRecord, range: string): Promise<void> {
    const confirmed = await confirmAction(
      `Cancel the backfill of blocks ${range}?`,
      'Nothing more is scanned, and its payloads not yet sent are dropped; what was sent stays sent.',
      'Cancel backfill',
      'Keep it running',
    );
    if (!confirmed) return;
    try {
      const cancelled = await api.send<BackfillRecord>('DELETE', `/me/${uuid}/backfills/${backfill.id}`);
      context.announce(
        cancelled.state === 'cancelled'
          ? `The backfill of blocks ${range} was cancelled.`
          : `The backfill of blocks ${range} had already finished (${cancelled.state}).`,
      );
      await refresh();
      // Its Cancel button is gone: the focus goes back to the panel, not to the page's start.
      title.focus();
    } catch (error) {
      context.showError(error);
    }
  }

  return {
    element,
    refresh,
    offer(fromHeight) {
      from.value = String(fromHeight);
      to.value = '';
    },
  };
}

function numberInput(id: string, required: boolean): HTMLInputElement {
  return el('input', { id, name: id, type: 'number', min: 0, step: 1, inputmode: 'numeric', required });
}

// "From height is above the archive (the archive's tip is 3)."
function describeProblem(problem: FieldProblem): string {
  let message = problem.message;
  for (const [field, label] of Object.entries(LABELS))
    message = message.replaceAll(field, label.toLowerCase());
  return `${LABELS[problem.field]} ${message}.`;
}
