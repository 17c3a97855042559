import type { Locator } from './payload-segments.js';

/** How a settled payload ended. */
export type SettledState = 'delivered' | 'failed';

/** One settled payload kept on disk only: where its records are and what orders and finds it. */
export type SettledPayload = {
  /** Its payload record (body included) while the body is kept; undefined once let go. */
  payload: Locator | undefined;
  /** Its settlement record: the log entry as it was settled (metadata, state, attempts). */
  settlement: Locator;
  seq: number;
  created_at: number;
  /** `idHash` of its id. */
  hash: number;
  state: SettledState;
  /** When it was delivered (the start of its body's window); null when failed. */
  delivered_at: number | null;
};

/** A chunk of a run as a compaction snapshot writes it: each column's slice, base64. */
export type SettledChunk = Record<ColumnName, string>;

type Columns = {
  pseg: Uint32Array;
  poff: Uint32Array;
  plen: Uint32Array;
  sseg: Uint32Array;
  soff: Uint32Array;
  slen: Uint32Array;
  seq: Float64Array;
  created: Float64Array;
  delivered: Float64Array;
  hash: Uint32Array;
  /** 1 failed, 0 delivered. */
  failed: Uint8Array;
  /** 1 while the payload record is kept. */
  kept: Uint8Array;
};
type ColumnName = keyof Columns;
type Column = Columns[ColumnName];

/** A run's columns and range as they were at one instant, for a compaction snapshot. */
export type SettledView = { columns: Columns; head: number; end: number };

const FIRST_CAPACITY = 8;
/** Payloads per snapshot record: about 74 KiB of base64, well inside a snapshot slice. */
export const SETTLED_CHUNK = 1024;
const NO_DELIVERY = -1;

function allocate(capacity: number): Columns {
  return {
    pseg: new Uint32Array(capacity),
    poff: new Uint32Array(capacity),
    plen: new Uint32Array(capacity),
    sseg: new Uint32Array(capacity),
    soff: new Uint32Array(capacity),
    slen: new Uint32Array(capacity),
    seq: new Float64Array(capacity),
    created: new Float64Array(capacity),
    delivered: new Float64Array(capacity),
    hash: new Uint32Array(capacity),
    failed: new Uint8Array(capacity),
    kept: new Uint8Array(capacity),
  };
}

const names = (c: Columns) => Object.keys(c) as ColumnName[];

/**
 * One hook's settled payloads that left memory, sorted by (created_at, enqueue order) as the log
 * is: about 54 bytes each in memory (typed arrays), whatever the payload or its attempts. Their
 * metadata, state and attempts are in a settlement record and their body in the payload record,
 * both on disk. Payloads settle in queue order, so a new one nearly always goes at the back (a
 * redelivered one may go in the middle), and pruning takes from the front. A compaction shares the
 * columns (`share`); a change in place then copies them first, so the snapshot keeps its instant.
 */
export class SettledRun {
  private cols = allocate(FIRST_CAPACITY);
  private head = 0;
  private end = 0;
  private shared = false;
  /** Payloads in each state. */
  readonly counts: Record<SettledState, number> = { delivered: 0, failed: 0 };

  /** How many payloads the run holds. */
  get length(): number {
    return this.end - this.head;
  }

  /** Put a payload in its place by (created_at, seq). */
  insert(p: SettledPayload): void {
    let at = this.end;
    if (at > this.head && this.before(p.created_at, p.seq, at - 1)) {
      let low = this.head;
      while (low < at) {
        const mid = (low + at) >> 1;
        if (this.before(p.created_at, p.seq, mid)) at = mid;
        else low = mid + 1;
      }
    }
    const position = at - this.head;
    if (this.end === this.cols.seq.length) this.resize(Math.max(FIRST_CAPACITY, this.length * 2));
    else if (position < this.length) this.own();
    const j = this.head + position;
    if (j < this.end) for (const name of names(this.cols)) this.cols[name].copyWithin(j + 1, j, this.end);
    this.end++;
    this.write(j, p);
  }

  /** The payload at position `i` from the front (oldest first). */
  at(i: number): SettledPayload {
    const j = this.head + i;
    const c = this.cols;
    const failed = c.failed[j] === 1;
    return {
      payload: c.kept[j] === 1 ? { seg: c.pseg[j], off: c.poff[j], len: c.plen[j] } : undefined,
      settlement: { seg: c.sseg[j], off: c.soff[j], len: c.slen[j] },
      seq: c.seq[j],
      created_at: c.created[j],
      hash: c.hash[j],
      state: failed ? 'failed' : 'delivered',
      delivered_at: c.delivered[j] === NO_DELIVERY ? null : c.delivered[j],
    };
  }

  /** The state of the payload at position `i`, without building it. */
  stateAt(i: number): SettledState {
    return this.cols.failed[this.head + i] === 1 ? 'failed' : 'delivered';
  }

  /** Take the payload at position `i` out (a redelivery, or a late attempt on it). */
  removeAt(i: number): SettledPayload {
    const taken = this.at(i);
    this.own();
    const j = this.head + i;
    for (const name of names(this.cols)) this.cols[name].copyWithin(j, j + 1, this.end);
    this.end--;
    this.counts[taken.state]--;
    return taken;
  }

  /** The position of the payload created at `created_at` with `seq`, or -1. */
  find(createdAt: number, seq: number): number {
    let low = this.head;
    let high = this.end;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (this.before(createdAt, seq, mid)) high = mid;
      else low = mid + 1;
    }
    const j = low - 1;
    return j >= this.head && this.cols.created[j] === createdAt && this.cols.seq[j] === seq
      ? j - this.head
      : -1;
  }

  /** Let go of the body of the payload at position `i`; returns its payload record, if it was kept. */
  dropBody(i: number): Locator | undefined {
    const loc = this.at(i).payload;
    if (!loc) return undefined;
    this.own();
    this.cols.kept[this.head + i] = 0;
    return loc;
  }

  /** Positions (from the front) whose id hash is `hash`: the candidates for one id. */
  positionsOf(hash: number): number[] {
    const found: number[] = [];
    for (let j = this.head; j < this.end; j++) if (this.cols.hash[j] === hash) found.push(j - this.head);
    return found;
  }

  /** Take every payload from the front created before `before`; returns them. */
  dropCreatedBefore(before: number): SettledPayload[] {
    const dropped: SettledPayload[] = [];
    while (this.end > this.head && this.cols.created[this.head] < before) {
      const p = this.at(0);
      this.head++;
      this.counts[p.state]--;
      dropped.push(p);
    }
    if (this.head >= 1024 && this.head * 2 >= this.end)
      this.resize(Math.max(FIRST_CAPACITY, this.length * 2));
    return dropped;
  }

  /** Every payload, oldest first. */
  *payloads(): Generator<SettledPayload> {
    for (let i = 0; i < this.length; i++) yield this.at(i);
  }

  /** The columns as they are now, kept so (changes in place copy them first) for a snapshot. */
  share(): SettledView {
    this.shared = true;
    return { columns: this.cols, head: this.head, end: this.end };
  }

  /** A view's payloads as snapshot chunks of at most `SETTLED_CHUNK` each. */
  static *chunks(view: SettledView): Generator<SettledChunk> {
    for (let from = view.head; from < view.end; from += SETTLED_CHUNK) {
      const to = Math.min(view.end, from + SETTLED_CHUNK);
      const chunk = {} as SettledChunk;
      for (const name of names(view.columns)) {
        const a = view.columns[name];
        const bytes = Buffer.from(
          a.buffer,
          a.byteOffset + from * a.BYTES_PER_ELEMENT,
          (to - from) * a.BYTES_PER_ELEMENT,
        );
        chunk[name] = bytes.toString('base64');
      }
      yield chunk;
    }
  }

  /** Append a snapshot chunk (chunks come oldest first); returns its payloads, to be counted as referenced. */
  restoreChunk(chunk: SettledChunk): SettledPayload[] {
    const decoded = allocate(0);
    for (const name of names(decoded)) {
      const bytes = Buffer.from(chunk[name], 'base64');
      const copy = new Uint8Array(bytes.length);
      copy.set(bytes);
      const make = decoded[name].constructor as new (b: ArrayBuffer) => Column;
      (decoded as Record<ColumnName, Column>)[name] = new make(copy.buffer);
    }
    const count = decoded.seq.length;
    if (this.end + count > this.cols.seq.length)
      this.resize(Math.max(FIRST_CAPACITY, (this.length + count) * 2));
    this.own();
    for (const name of names(decoded)) this.cols[name].set(decoded[name] as never, this.end);
    const added: SettledPayload[] = [];
    for (let i = 0; i < count; i++) {
      const p = this.at(this.length + i);
      this.counts[p.state]++;
      added.push(p);
    }
    this.end += count;
    return added;
  }

  private write(j: number, p: SettledPayload): void {
    const c = this.cols;
    c.kept[j] = p.payload ? 1 : 0;
    c.pseg[j] = p.payload?.seg ?? 0;
    c.poff[j] = p.payload?.off ?? 0;
    c.plen[j] = p.payload?.len ?? 0;
    c.sseg[j] = p.settlement.seg;
    c.soff[j] = p.settlement.off;
    c.slen[j] = p.settlement.len;
    c.seq[j] = p.seq;
    c.created[j] = p.created_at;
    c.delivered[j] = p.delivered_at ?? NO_DELIVERY;
    c.hash[j] = p.hash;
    c.failed[j] = p.state === 'failed' ? 1 : 0;
    this.counts[p.state]++;
  }

  // Whether (createdAt, seq) comes before the payload at array index j.
  private before(createdAt: number, seq: number, j: number): boolean {
    const created = this.cols.created[j];
    return createdAt < created || (createdAt === created && seq < this.cols.seq[j]);
  }

  // A snapshot holds the columns: copy them before changing one in place.
  private own(): void {
    if (this.shared) this.resize(this.cols.seq.length);
  }

  private resize(capacity: number): void {
    const next = allocate(capacity);
    for (const name of names(next)) next[name].set(this.cols[name].subarray(this.head, this.end) as never);
    this.cols = next;
    this.end -= this.head;
    this.head = 0;
    this.shared = false;
  }
}
