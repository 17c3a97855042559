import type { DeliveryAttempt } from '../../core/delivery/delivery-record.js';
import { serializePayload } from '../../core/payload/index.js';
import type { DeliveryQueue, DuePayload, OutgoingPayload } from '../../core/ports/delivery-queue.js';

/** A queued payload as `due` hands it out: its body as the text `serializePayload` makes of it. */
export function asDue({ body, ...fields }: OutgoingPayload): DuePayload {
  return { ...fields, body_text: serializePayload(body) };
}

/** A payload `due` handed out, its body parsed back: what was queued, to compare with it. */
export function asQueued({ body_text, ...fields }: DuePayload): OutgoingPayload {
  return { ...fields, body: JSON.parse(body_text) as OutgoingPayload['body'] };
}

/** A fixed start time, so due times read as offsets from it. */
export const T0 = 1_700_000_000_000;
let sequence = 0;

/** An outgoing payload for `hook`; `pad` grows the body by that many characters. */
export function outgoing(
  hook: string,
  options: Partial<Pick<OutgoingPayload, 'id' | 'kind' | 'apply' | 'rollback' | 'created_at'>> & {
    pad?: number;
  } = {},
): OutgoingPayload {
  const id = options.id ?? `msg_${hook}_${++sequence}`;
  return {
    id,
    hook_uuid: hook,
    owner: 'owner-1',
    url: `https://example.com/${hook}`,
    kind: options.kind ?? 'live',
    apply: options.apply ?? [],
    rollback: options.rollback ?? [],
    body: {
      chainhook: { uuid: hook, name: `${id}${'x'.repeat(options.pad ?? 0)}` },
      event: { chain: 'stacks', network: 'mainnet', apply: [], rollback: [] },
    },
    created_at: options.created_at ?? T0,
  };
}

/**
 * One payload per hook whose bodies share the same `blocks` block objects in `apply` (as shaped
 * payloads of one chain event do), each with its own hook in the body.
 */
export function sharingBlocks(hooks: readonly string[], blocks: number): OutgoingPayload[] {
  const shared = Array.from({ length: blocks }, (_, i) => ({
    block_identifier: { index: 100 + i, hash: `0x${100 + i}` },
    parent_block_identifier: { index: 99 + i, hash: `0x${99 + i}` },
    timestamp: 1_700_000_000 + i,
    transactions: [],
    metadata: { note: `block ${i} "quoted" ✓ ${'y'.repeat(200)}` } as never,
  }));
  return hooks.map((hook) => {
    const p = outgoing(hook, { apply: shared.map((b) => ({ ...b.block_identifier, tx_indexes: [0] })) });
    return { ...p, body: { ...p.body, event: { ...p.body.event, apply: shared } } };
  });
}

/** An attempt at `at` that the target answered with `status`. */
export function attemptAt(at: number, status = 500): DeliveryAttempt {
  return { at, status_code: status, error: status >= 300 ? `HTTP ${status}` : null, latency_ms: 12 };
}

/** No hook busy: every head may be due. */
export const none: ReadonlySet<string> = new Set();
/** The ids of `payloads`, in order. */
export const ids = (payloads: { id: string }[]) => payloads.map((p) => p.id);
/** The ids of the payloads due at `now`, in the order the queue hands them out. */
export const dueIds = async (queue: DeliveryQueue, now: number, limit = 100, busy = none) =>
  (await queue.due(now, limit, busy)).map((d) => d.payload.id);

/** Deliver everything due until nothing is left; returns the ids in the order they went out. */
export async function drain(queue: DeliveryQueue, now = T0 + 1e12): Promise<string[]> {
  const sent: string[] = [];
  for (let due = await queue.due(now, 1000, none); due.length > 0; due = await queue.due(now, 1000, none)) {
    for (const { payload } of due) {
      await queue.recordAttempt(payload.id, attemptAt(now, 200), { state: 'delivered' });
      sent.push(payload.id);
    }
  }
  return sent;
}
