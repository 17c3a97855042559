import type { OutgoingPayload } from '../../core/ports/delivery-queue.js';

/** A body held, and the length of its JSON. */
type Held = { body: OutgoingPayload['body']; bytes: number };

/**
 * The bodies of recently queued payloads, kept as the objects they were queued with, so that a
 * receiver that keeps up is sent from memory and never from disk. It holds at most `maxBytes` of
 * bodies (as their JSON is long), oldest out first: a hook that falls behind is sent from its
 * records on disk, and memory does not grow with its backlog.
 */
export class BodyCache {
  private readonly bodies = new Map<string, Held>();
  private bytes = 0;
  /**
   * Walks the map oldest first across calls, each entry it passes let go. A walk started afresh at
   * every insert would step over every entry deleted at the front since the map last compacted:
   * thousands per insert in a full cache.
   */
  private evictor: MapIterator<[string, Held]> | undefined;

  constructor(private readonly maxBytes: number) {}

  /** Keep a body whose JSON is `bytes` long; the oldest go when the budget is exceeded. */
  put(id: string, body: OutgoingPayload['body'], bytes: number): void {
    if (bytes > this.maxBytes) return;
    this.drop(id);
    this.bodies.set(id, { body, bytes });
    this.bytes += bytes;
    while (this.bytes > this.maxBytes) {
      let next = this.evictor?.next();
      if (!next || next.done) {
        // A finished walk stays finished: the entries added since are the oldest now.
        this.evictor = this.bodies.entries();
        next = this.evictor.next();
      }
      if (next.done) break;
      const [oldest, held] = next.value;
      this.bodies.delete(oldest);
      this.bytes -= held.bytes;
    }
  }

  /** The body, if still held. */
  get(id: string): OutgoingPayload['body'] | undefined {
    return this.bodies.get(id)?.body;
  }

  /** Let a body go (its payload was settled or forgotten). */
  drop(id: string): void {
    const held = this.bodies.get(id);
    if (!held) return;
    this.bodies.delete(id);
    this.bytes -= held.bytes;
  }

  /** Bytes of bodies held now. */
  get size(): number {
    return this.bytes;
  }
}
