import { API_BASE } from './api-client.js';
import type { ConsumerSecret, ServiceStatus } from './api-types.js';
import { confirmAction } from './confirm-dialog.js';
import { el } from './dom.js';
import { poll } from './polling.js';
import { formatAge, formatCount, formatTime } from './format.js';
import type { View, ViewContext } from './view.js';

const POLL_MS = 5_000;

/** The service: chain tip, last block, lag, open gaps, outbox depth, conditions, and the consumer secret. */
export function systemView(context: ViewContext): View {
  const { api } = context;
  const figures = el('div', {}, el('p', { class: 'hint' }, 'Reading the status…'));
  const secretState = el('p', {}, 'Reading…');
  const revealed = el('div', { 'aria-live': 'polite' });
  const rotate = el('button', { type: 'button' }, 'Rotate the secret');
  rotate.addEventListener('click', () => void rotateSecret());
  let left = false;

  const element = el(
    'div',
    { class: 'stack' },
    el(
      'section',
      { 'aria-labelledby': 'system-title' },
      el('h1', { id: 'system-title', tabindex: -1 }, 'System'),
      figures,
    ),
    el(
      'section',
      { class: 'card', 'aria-labelledby': 'secret-title' },
      el('h2', { id: 'secret-title' }, 'Consumer secret'),
      el(
        'p',
        { class: 'hint' },
        'Deliveries are signed with this secret (Standard Webhooks). This page shows a new secret once, when you rotate it; the API reads it again (GET /chainhooks/v1/me/secret).',
      ),
      secretState,
      rotate,
      revealed,
    ),
  );

  async function loadStatus(): Promise<void> {
    try {
      // The status route needs no key; it is the service's, not the owner's.
      const response = await fetch(`${API_BASE}/`, { cache: 'no-store' });
      if (!response.ok) throw new Error(`The status route answered ${response.status}. Try again shortly.`);
      if (!left) figures.replaceChildren(statusFacts((await response.json()) as ServiceStatus, Date.now()));
    } catch (error) {
      context.showError(
        error instanceof TypeError
          ? new Error('The stackhooks server cannot be reached. Check that it is running, then try again.')
          : error,
      );
    }
  }

  async function loadSecret(): Promise<void> {
    try {
      const secret = await api.get<ConsumerSecret>('/me/secret');
      secretState.textContent =
        secret.secret === null
          ? 'No secret is set: deliveries go out unsigned. Rotate to create one.'
          : 'A secret is set. Rotating replaces it: signatures made with the old one stop verifying at once.';
    } catch (error) {
      context.showError(error);
    }
  }

  async function rotateSecret(): Promise<void> {
    const confirmed = await confirmAction(
      'Rotate the consumer secret?',
      'Receivers that verify signatures must be given the new secret: the old one stops working at once.',
      'Rotate',
    );
    if (!confirmed) return;
    try {
      const secret = await api.send<ConsumerSecret>('POST', '/me/secret');
      revealed.replaceChildren(
        el('h3', {}, 'Your new secret'),
        el(
          'p',
          {},
          'Copy it now: this page will not show it again (the API can read it: GET /chainhooks/v1/me/secret).',
        ),
        el(
          'dl',
          { class: 'facts' },
          el('dt', {}, 'Standard Webhooks form'),
          el('dd', { class: 'secret', 'data-secret': 'standard' }, secret.standard_webhooks_secret ?? ''),
          el('dt', {}, 'Hex form'),
          el('dd', { class: 'secret', 'data-secret': 'hex' }, secret.secret ?? ''),
        ),
      );
      context.announce('The consumer secret was rotated. Copy the new secret now.');
      await loadSecret();
    } catch (error) {
      context.showError(error);
    }
  }

  const polling = poll(loadStatus, POLL_MS);
  void loadSecret();
  return {
    element,
    title: 'System',
    stop() {
      left = true;
      polling.stop();
      // The secret shown once goes when the page does.
      revealed.replaceChildren();
    },
  };
}

function statusFacts(status: ServiceStatus, now: number): HTMLElement {
  const tip = status.chain_tip;
  const lastBlock = status.ingest?.last_block_at ?? status.chain?.last_block_received_at ?? null;
  const gaps = status.chain?.gaps ?? [];
  const outbox = status.outbox;
  const conditions = status.conditions ?? [];
  return el(
    'div',
    {},
    el(
      'dl',
      { class: 'facts' },
      el('dt', {}, 'Version'),
      el('dd', {}, status.server_version),
      el('dt', {}, 'Chain tip'),
      el('dd', {}, tip ? `block ${formatCount(tip.block_height)} (${tip.index_block_hash})` : 'no block yet'),
      el('dt', {}, 'Last block'),
      el(
        'dd',
        {},
        lastBlock === null ? 'none yet' : `${formatTime(lastBlock)} (${formatAge(lastBlock, now)})`,
      ),
      el('dt', {}, 'Lag'),
      el(
        'dd',
        {},
        status.ingest
          ? `${status.ingest.lag_seconds.toFixed(1)} s, ${formatCount(status.ingest.entries_behind)} posts not processed yet`
          : 'not known to this process',
      ),
      el('dt', {}, 'Open gaps'),
      el(
        'dd',
        {},
        status.chain === undefined
          ? 'not known to this process'
          : status.chain.open_gaps === 0
            ? 'none'
            : `${formatCount(status.chain.open_gaps)}: ` +
              gaps.map((gap) => `${gap.from_height}–${gap.to_height} (${gap.missing} missing)`).join(', '),
      ),
      el('dt', {}, 'Outbox'),
      el(
        'dd',
        {},
        outbox === undefined
          ? 'not known to this process'
          : outbox.pending === 0
            ? 'empty'
            : `${formatCount(outbox.pending)} payloads waiting, the oldest since ${formatTime(outbox.oldest_pending_created_at)}`,
      ),
    ),
    el('h2', {}, 'Conditions'),
    conditions.length === 0
      ? el('p', {}, 'None: the service is doing all of its work.')
      : el(
          'ul',
          {},
          conditions.map((condition) =>
            el('li', {}, el('strong', {}, condition.name), `: ${condition.reason}`),
          ),
        ),
  );
}
