import { HOOK_STATUS_VALUES, type HookRecord, type Page } from './api-types.js';
import { choice, el, field } from './dom.js';
import { formatCount, formatTime, hookLabel, summarizeFilters } from './format.js';
import type { View, ViewContext } from './view.js';

const PAGE_SIZE = 20;

/** What the table shows; kept while the tab lives, so coming back from a hook keeps the place. */
const listing = { name: '', status: '', enabled: '', offset: 0 };

/** The owner's hooks: a paged table with search, filters, and enabling one or many. */
export function hooksView(context: ViewContext): View {
  const { api } = context;
  const selected = new Set<string>();
  let page: Page<HookRecord> = { limit: PAGE_SIZE, offset: 0, total: 0, results: [] };
  let searchTimer: number | undefined;

  const search = el('input', { id: 'hook-search', type: 'search', value: listing.name, autocomplete: 'off' });
  const status = choice(
    'hook-status',
    [['', 'Any status'], ...HOOK_STATUS_VALUES.map((s) => [s, s])],
    listing.status,
  );
  const enabled = choice(
    'hook-enabled',
    [
      ['', 'Enabled or not'],
      ['true', 'Enabled'],
      ['false', 'Disabled'],
    ],
    listing.enabled,
  );
  const filters = el(
    'form',
    { class: 'filters', role: 'search', 'aria-label': 'Find hooks' },
    field('hook-search', 'Search by name', search),
    field('hook-status', 'Status', status),
    field('hook-enabled', 'Enabled', enabled),
  );
  filters.addEventListener('submit', (event) => {
    event.preventDefault();
    applyFilters();
  });
  search.addEventListener('input', () => {
    window.clearTimeout(searchTimer);
    searchTimer = window.setTimeout(applyFilters, 300);
  });
  status.addEventListener('change', applyFilters);
  enabled.addEventListener('change', applyFilters);

  const selectedCount = el('span', { id: 'selected-count' }, 'No hook selected');
  const enableSelected = el('button', { type: 'button', disabled: true }, 'Enable selected');
  const disableSelected = el(
    'button',
    { type: 'button', disabled: true, class: 'secondary' },
    'Disable selected',
  );
  enableSelected.addEventListener('click', () => void bulkEnable(true));
  disableSelected.addEventListener('click', () => void bulkEnable(false));
  const bulk = el(
    'div',
    { class: 'bulk', role: 'group', 'aria-label': 'Selected hooks' },
    selectedCount,
    enableSelected,
    disableSelected,
  );

  const body = el('tbody');
  const selectPage = el('input', {
    type: 'checkbox',
    id: 'select-page',
    'aria-label': 'Select every hook on this page',
  });
  selectPage.addEventListener('change', () => {
    for (const hook of page.results) {
      if (selectPage.checked) selected.add(hook.uuid);
      else selected.delete(hook.uuid);
    }
    renderRows();
  });
  const caption = el('caption', {}, 'Loading hooks…');
  const table = el(
    'table',
    { class: 'hooks' },
    caption,
    el(
      'thead',
      {},
      el(
        'tr',
        {},
        el('th', { scope: 'col' }, selectPage),
        ...[
          'Name',
          'Status',
          'Enabled',
          'Filters',
          'Blocks evaluated',
          'Occurrences',
          'Last occurrence',
          'Failed deliveries',
          'Action',
        ].map((name) => el('th', { scope: 'col' }, name)),
      ),
    ),
    body,
  );
  const previous = el('button', { type: 'button', class: 'secondary' }, 'Previous page');
  const next = el('button', { type: 'button', class: 'secondary' }, 'Next page');
  const firstPage = el('button', { type: 'button', class: 'secondary' }, 'First page');
  const lastPage = el('button', { type: 'button', class: 'secondary' }, 'Last page');
  firstPage.addEventListener('click', () => void load(0));
  lastPage.addEventListener(
    'click',
    () => void load(Math.floor(Math.max(0, page.total - 1) / PAGE_SIZE) * PAGE_SIZE),
  );
  const position = el('span', { 'aria-live': 'polite' });
  previous.addEventListener('click', () => void load(Math.max(0, listing.offset - PAGE_SIZE)));
  next.addEventListener('click', () => void load(listing.offset + PAGE_SIZE));
  const pager = el(
    'nav',
    { class: 'pager', 'aria-label': 'Pages of hooks' },
    firstPage,
    previous,
    position,
    next,
    lastPage,
  );

  const element = el(
    'section',
    { 'aria-labelledby': 'hooks-title' },
    el('h1', { id: 'hooks-title', tabindex: -1 }, 'Hooks'),
    filters,
    bulk,
    el('div', { class: 'table-frame' }, table),
    pager,
  );

  function applyFilters(): void {
    listing.name = search.value.trim();
    listing.status = status.value;
    listing.enabled = enabled.value;
    void load(0);
  }

  async function load(offset: number): Promise<void> {
    listing.offset = offset;
    try {
      page = await api.get<Page<HookRecord>>('/me', {
        offset,
        limit: PAGE_SIZE,
        name: listing.name,
        status: listing.status,
        enabled: listing.enabled,
      });
      context.clearError();
    } catch (error) {
      context.showError(error);
      return;
    }
    // A filter that shrank the listing below the page shown goes back to its last page.
    if (page.results.length === 0 && page.total > 0 && offset > 0) {
      return load(Math.floor((page.total - 1) / PAGE_SIZE) * PAGE_SIZE);
    }
    renderRows();
    void loadFailures(page.results);
  }

  function renderRows(): void {
    const first = page.total === 0 ? 0 : page.offset + 1;
    const last = page.offset + page.results.length;
    caption.textContent =
      page.total === 0
        ? filtered()
          ? 'No hook matches these filters.'
          : 'No hooks yet: register one with POST /chainhooks/v1/me.'
        : `Hooks ${formatCount(first)} to ${formatCount(last)} of ${formatCount(page.total)}`;
    position.textContent = `Page ${Math.floor(page.offset / PAGE_SIZE) + 1} of ${Math.max(1, Math.ceil(page.total / PAGE_SIZE))}`;
    previous.disabled = firstPage.disabled = page.offset === 0;
    next.disabled = lastPage.disabled = last >= page.total;
    // A row's button keeps the focus through the redraw its own action causes.
    const focusKey =
      document.activeElement instanceof HTMLElement ? document.activeElement.dataset.focusKey : undefined;
    body.replaceChildren(...page.results.map(row));
    if (focusKey) body.querySelector<HTMLElement>(`[data-focus-key="${focusKey}"]`)?.focus();
    selectPage.checked = page.results.length > 0 && page.results.every((hook) => selected.has(hook.uuid));
    selectedCount.textContent = selected.size === 0 ? 'No hook selected' : `${selected.size} selected`;
    enableSelected.disabled = disableSelected.disabled = selected.size === 0;
  }

  function row(hook: HookRecord): HTMLTableRowElement {
    const { status: s, definition } = hook;
    const pick = el('input', {
      type: 'checkbox',
      'data-focus-key': `pick-${hook.uuid}`,
      'aria-label': `Select ${hookLabel(hook)}`,
      checked: selected.has(hook.uuid),
    });
    pick.addEventListener('change', () => {
      if (pick.checked) selected.add(hook.uuid);
      else selected.delete(hook.uuid);
      renderRows();
    });
    // An interrupted hook is resumed from the block it missed first: enabling it from the tip
    // would skip blocks without a word.
    const resume = !s.enabled && s.status === 'interrupted';
    const action = s.enabled ? 'Disable' : resume ? 'Resume' : 'Enable';
    const toggle = el(
      'button',
      {
        type: 'button',
        class: 'secondary',
        'data-focus-key': `toggle-${hook.uuid}`,
        'aria-label': `${action} ${hookLabel(hook)}`,
      },
      action,
    );
    toggle.addEventListener('click', () => void setEnabled(hook, !s.enabled, resume));
    const occurrence =
      s.last_occurrence_block_height === null
        ? 'never'
        : `block ${formatCount(s.last_occurrence_block_height)}, ${formatTime((s.last_occurrence_at ?? 0) * 1000)}`;
    return el(
      'tr',
      { 'data-uuid': hook.uuid },
      el('td', { 'data-label': 'Select' }, pick),
      el('td', { 'data-label': 'Name' }, el('a', { href: `#/hooks/${hook.uuid}` }, hookLabel(hook))),
      el('td', { 'data-label': 'Status' }, el('span', { class: `badge ${s.status}` }, s.status)),
      el('td', { 'data-label': 'Enabled' }, s.enabled ? 'yes' : 'no'),
      el(
        'td',
        { 'data-label': 'Filters', class: 'filters-cell' },
        summarizeFilters(definition.filters.events),
      ),
      el('td', { 'data-label': 'Blocks evaluated', class: 'number' }, formatCount(s.evaluated_block_count)),
      el('td', { 'data-label': 'Occurrences', class: 'number' }, formatCount(s.occurrence_count)),
      el('td', { 'data-label': 'Last occurrence' }, occurrence),
      el('td', { 'data-label': 'Failed deliveries', class: 'number failures' }, '…'),
      el('td', { 'data-label': 'Action' }, toggle),
    );
  }

  // The listing has no failure counts: each row asks the delivery log for its failed payloads.
  async function loadFailures(hooks: HookRecord[]): Promise<void> {
    await Promise.all(
      hooks.map(async (hook) => {
        const cell = body.querySelector(`tr[data-uuid="${hook.uuid}"] .failures`);
        try {
          const failed = await api.get<Page<unknown>>(`/me/${hook.uuid}/deliveries`, {
            state: 'failed',
            limit: 1,
          });
          if (cell) cell.textContent = formatCount(failed.total);
        } catch {
          if (cell) cell.textContent = 'unknown';
        }
      }),
    );
  }

  async function setEnabled(hook: HookRecord, value: boolean, resume: boolean): Promise<void> {
    try {
      await api.send(
        'PATCH',
        `/me/${hook.uuid}/enabled`,
        resume ? { enabled: true, resume } : { enabled: value },
      );
      const name = hookLabel(hook);
      context.announce(
        resume
          ? `${name} is resuming: it is sent every block it missed, in order.`
          : `${name} is ${value ? 'enabled' : 'disabled'}.`,
      );
    } catch (error) {
      context.showError(error);
    }
    await load(listing.offset);
  }

  async function bulkEnable(value: boolean): Promise<void> {
    const uuids = [...selected];
    try {
      // The bulk route takes at most 200 hooks a call.
      for (let at = 0; at < uuids.length; at += 200) {
        await api.send('PATCH', '/me/enabled', {
          enabled: value,
          filters: { uuids: uuids.slice(at, at + 200) },
        });
      }
      selected.clear();
      context.announce(`${uuids.length} hook(s) ${value ? 'enabled' : 'disabled'}.`);
    } catch (error) {
      context.showError(error);
    }
    await load(listing.offset);
  }

  void load(listing.offset);
  return { element, title: 'Hooks', stop: () => window.clearTimeout(searchTimer) };
}

function filtered(): boolean {
  return listing.name !== '' || listing.status !== '' || listing.enabled !== '';
}
