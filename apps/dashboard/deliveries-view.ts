import { ApiError } from './api-client.js';
import type { DeliveryRecord, Page } from './api-types.js';
import { choice, el, field } from './dom.js';
import { attemptFailed, describeAttempt, formatCount, formatTime } from './format.js';
import { keptRows } from './kept-rows.js';
import type { ViewContext } from './view.js';

const PAGE_SIZE = 20;

/** The deliveries panel: its element, and `refresh` to read the log again (the page polls it). */
export type DeliveriesPanel = { element: HTMLElement; refresh(): Promise<void> };

/**
 * A hook's delivery log: each payload's state, blocks and every attempt, with redelivery.
 * `explainRefusal` says, in the dashboard's words, why the server refused (409) to send one again.
 */
export function deliveriesPanel(
  context: ViewContext,
  uuid: string,
  explainRefusal: (refusal: ApiError) => string = (refusal) => refusal.message,
): DeliveriesPanel {
  const { api } = context;
  let state = '';
  let offset = 0;
  let shown = '';

  const stateChoice = choice('delivery-state', [
    ['', 'Every state'],
    ['pending', 'Pending'],
    ['delivered', 'Delivered'],
    ['failed', 'Failed'],
  ]);
  stateChoice.addEventListener('change', () => {
    state = stateChoice.value;
    offset = 0;
    void refresh();
  });
  const caption = el('caption', {}, 'Loading deliveries…');
  const body = el('tbody');
  // Rows are redrawn only when they changed, so an open list of attempts stays open and the
  // focused button keeps the focus while new attempts come in.
  const showRows = keptRows<DeliveryRecord>(body, deliveryRow);
  const previous = el('button', { type: 'button', class: 'secondary' }, 'Newer');
  const next = el('button', { type: 'button', class: 'secondary' }, 'Older');
  previous.addEventListener('click', () => {
    offset = Math.max(0, offset - PAGE_SIZE);
    void refresh();
  });
  next.addEventListener('click', () => {
    offset += PAGE_SIZE;
    void refresh();
  });
  const element = el(
    'section',
    { class: 'card', 'aria-labelledby': 'deliveries-title' },
    el('h2', { id: 'deliveries-title' }, 'Deliveries'),
    field('delivery-state', 'Show', stateChoice),
    el(
      'table',
      { class: 'cards deliveries' },
      caption,
      el(
        'thead',
        {},
        el(
          'tr',
          {},
          ...['Created', 'Kind', 'State', 'Blocks', 'Attempts', 'Action'].map((name) =>
            el('th', { scope: 'col' }, name),
          ),
        ),
      ),
      body,
    ),
    el('nav', { class: 'pager', 'aria-label': 'Pages of deliveries' }, previous, next),
  );

  async function refresh(): Promise<void> {
    const page = await api.get<Page<DeliveryRecord>>(`/me/${uuid}/deliveries`, {
      state,
      offset,
      limit: PAGE_SIZE,
    });
    const json = JSON.stringify(page);
    if (json === shown) return;
    shown = json;
    caption.textContent =
      page.total === 0
        ? 'No deliveries yet.'
        : `Deliveries ${formatCount(offset + 1)} to ${formatCount(offset + page.results.length)} of ${formatCount(page.total)}, newest first`;
    previous.disabled = offset === 0;
    next.disabled = offset + page.results.length >= page.total;
    showRows(page.results);
  }

  function deliveryRow(
    delivery: DeliveryRecord,
    before: HTMLTableRowElement | undefined,
  ): HTMLTableRowElement {
    const wasOpen = before?.querySelector('details')?.open ?? false;
    const blocks = [
      ...delivery.apply.map((block) => `apply ${formatCount(block.index)}`),
      ...delivery.rollback.map((block) => `roll back ${formatCount(block.index)}`),
    ].join(', ');
    const redeliver = el(
      'button',
      {
        type: 'button',
        class: 'secondary',
        'data-focus-key': `redeliver-${delivery.id}`,
        'aria-label': `Redeliver the delivery created ${formatTime(delivery.created_at)}`,
      },
      'Redeliver',
    );
    redeliver.addEventListener('click', () => void sendAgain(delivery));
    const note = delivery.failure_reason ?? delivery.held_reason;
    const waiting =
      delivery.state === 'pending' && delivery.next_attempt_at !== null
        ? `next attempt ${formatTime(delivery.next_attempt_at)}`
        : null;
    return el(
      'tr',
      { 'data-delivery': delivery.id },
      el('td', { 'data-label': 'Created' }, formatTime(delivery.created_at)),
      el('td', { 'data-label': 'Kind' }, delivery.kind),
      el(
        'td',
        { 'data-label': 'State' },
        el('span', { class: `badge ${delivery.state}` }, delivery.state),
        note ? el('div', { class: 'hint' }, note) : null,
        waiting ? el('div', { class: 'hint' }, waiting) : null,
      ),
      el('td', { 'data-label': 'Blocks' }, blocks || '—'),
      el('td', { 'data-label': 'Attempts' }, attemptsList(delivery, wasOpen)),
      el('td', { 'data-label': 'Action' }, redeliver),
    );
  }

  async function sendAgain(delivery: DeliveryRecord): Promise<void> {
    try {
      await api.send('POST', `/me/${uuid}/deliveries/${delivery.id}/redeliver`);
      context.announce('The delivery is queued again; its new attempts appear below.');
      await refresh();
    } catch (error) {
      context.showError(
        error instanceof ApiError && error.status === 409
          ? new Error(`The delivery was not sent again: ${explainRefusal(error)}`)
          : error,
      );
    }
  }

  return { element, refresh };
}

function attemptsList(delivery: DeliveryRecord, open: boolean): HTMLElement {
  const { attempts } = delivery;
  const failed = attempts.filter(attemptFailed).length;
  const summary = attempts.length === 0 ? 'none yet' : `${attempts.length} (${failed} failed)`;
  if (attempts.length === 0) return el('span', {}, summary);
  return el(
    'details',
    { open },
    el('summary', { 'data-focus-key': `attempts-${delivery.id}` }, summary),
    el(
      'table',
      { class: 'attempts' },
      el('caption', { class: 'hint' }, 'Every attempt, oldest first'),
      el(
        'thead',
        {},
        el('tr', {}, ...['Time', 'Result', 'Latency'].map((name) => el('th', { scope: 'col' }, name))),
      ),
      el(
        'tbody',
        {},
        attempts.map((attempt) =>
          el(
            'tr',
            { class: attemptFailed(attempt) ? 'failed' : 'ok' },
            el('td', {}, formatTime(attempt.at)),
            el('td', {}, describeAttempt(attempt)),
            el('td', { class: 'number' }, `${formatCount(attempt.latency_ms)} ms`),
          ),
        ),
      ),
    ),
  );
}
