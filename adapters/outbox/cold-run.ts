import type { Locator } from './payload-segments.js';

/** One payload kept on disk only: where its record is, its place in the log, and a hash of its id. */
export type ColdPayload = Locator & {
  seq: number;
  created_at: number;
  /** `idHash` of its id, to find it without reading every record. */
  hash: number;
  /** Its metadata is also in memory (a redelivered payload queued behind cold ones): counted there. */
  twin: boolean;
};

/** Where a run of a hook's payloads stands: waiting to be sent, or given up on together. */
export type ColdState = 'pending' | 'failed';

/** A run as a compaction snapshot writes it: the arrays, base64. */
export type ColdRunSnapshot = {
  state: ColdState;
  reason: string | null;
  seg: string;
  off: string;
  len: string;
  seq: string;
  created: string;
  hash: string;
  twin: string;
};

const FIRST_CAPACITY = 16;

/**
 * A run of one hook's payloads, in queue order, whose metadata and bodies live only in their
 * records on disk: about 33 bytes each in memory (typed arrays), whatever the payload's size. A
 * pending run is the tail of a hook's queue beyond the payloads kept in memory; a failed run is
 * what an interruption gave up on (one reason for all). Taking from the front moves an index.
 */
export class ColdRun {
  private seg = new Uint32Array(FIRST_CAPACITY);
  private off = new Uint32Array(FIRST_CAPACITY);
  private len = new Uint32Array(FIRST_CAPACITY);
  private seqs = new Float64Array(FIRST_CAPACITY);
  private created = new Float64Array(FIRST_CAPACITY);
  private hashes = new Uint32Array(FIRST_CAPACITY);
  private twins = new Uint8Array(FIRST_CAPACITY);
  private head = 0;
  private end = 0;
  private twinCount = 0;

  constructor(
    public state: ColdState,
    public reason: string | null = null,
  ) {}

  /** How many payloads the run holds, twins included. */
  get length(): number {
    return this.end - this.head;
  }

  /** How many payloads only this run holds (twins are counted where their metadata is). */
  get own(): number {
    return this.length - this.twinCount;
  }

  /** Add a payload at the back. */
  push(p: ColdPayload): void {
    if (this.end === this.seg.length) this.grow();
    const i = this.end++;
    this.seg[i] = p.seg;
    this.off[i] = p.off;
    this.len[i] = p.len;
    this.seqs[i] = p.seq;
    this.created[i] = p.created_at;
    this.hashes[i] = p.hash;
    this.twins[i] = p.twin ? 1 : 0;
    if (p.twin) this.twinCount++;
  }

  /** The payload at position `i` from the front. */
  at(i: number): ColdPayload {
    const j = this.head + i;
    return {
      seg: this.seg[j],
      off: this.off[j],
      len: this.len[j],
      seq: this.seqs[j],
      created_at: this.created[j],
      hash: this.hashes[j],
      twin: this.twins[j] === 1,
    };
  }

  /** Take the payload at the front. */
  shift(): ColdPayload | undefined {
    if (this.length === 0) return undefined;
    const first = this.at(0);
    this.head++;
    if (first.twin) this.twinCount--;
    if (this.head >= 1024 && this.head * 2 >= this.end) this.compact();
    return first;
  }

  /** Take the payload at position `i` out (a redelivery of one failed payload: rare, O(n)). */
  removeAt(i: number): ColdPayload {
    const taken = this.at(i);
    const j = this.head + i;
    for (const array of this.arrays()) array.copyWithin(j, j + 1, this.end);
    this.end--;
    if (taken.twin) this.twinCount--;
    return taken;
  }

  /** Take every payload from the front created before `before` (failed runs, in creation order); returns them. */
  dropCreatedBefore(before: number): ColdPayload[] {
    const dropped: ColdPayload[] = [];
    while (this.length > 0 && this.created[this.head] < before) dropped.push(this.shift()!);
    return dropped;
  }

  /** Positions (from the front) whose id hash is `hash`: the candidates for one id. */
  positionsOf(hash: number): number[] {
    const found: number[] = [];
    for (let j = this.head; j < this.end; j++) if (this.hashes[j] === hash) found.push(j - this.head);
    return found;
  }

  /** Every payload, front to back. */
  *payloads(): Generator<ColdPayload> {
    for (let i = 0; i < this.length; i++) yield this.at(i);
  }

  /** The run as base64 arrays, for a compaction snapshot. */
  snapshot(): ColdRunSnapshot {
    const slice = <T extends Uint32Array | Float64Array | Uint8Array>(a: T) =>
      Buffer.from(
        a.buffer,
        a.byteOffset + this.head * a.BYTES_PER_ELEMENT,
        this.length * a.BYTES_PER_ELEMENT,
      ).toString('base64');
    return {
      state: this.state,
      reason: this.reason,
      seg: slice(this.seg),
      off: slice(this.off),
      len: slice(this.len),
      seq: slice(this.seqs),
      created: slice(this.created),
      hash: slice(this.hashes),
      twin: slice(this.twins),
    };
  }

  /** A run from its snapshot. */
  static restore(snapshot: ColdRunSnapshot): ColdRun {
    const run = new ColdRun(snapshot.state, snapshot.reason);
    const u32 = (b64: string) => new Uint32Array(copy(b64).buffer);
    const f64 = (b64: string) => new Float64Array(copy(b64).buffer);
    const seg = u32(snapshot.seg);
    const off = u32(snapshot.off);
    const len = u32(snapshot.len);
    const seq = f64(snapshot.seq);
    const created = f64(snapshot.created);
    const hash = u32(snapshot.hash);
    const twin = new Uint8Array(copy(snapshot.twin).buffer);
    for (let i = 0; i < seg.length; i++) {
      run.push({
        seg: seg[i],
        off: off[i],
        len: len[i],
        seq: seq[i],
        created_at: created[i],
        hash: hash[i],
        twin: twin[i] === 1,
      });
    }
    return run;
  }

  private arrays(): (Uint32Array | Float64Array | Uint8Array)[] {
    return [this.seg, this.off, this.len, this.seqs, this.created, this.hashes, this.twins];
  }

  private grow(): void {
    const capacity = Math.max(FIRST_CAPACITY, (this.length + 1) * 2);
    this.resize(capacity);
  }

  // Drop the taken prefix once it outweighs the rest, keeping memory proportional to the run.
  private compact(): void {
    this.resize(Math.max(FIRST_CAPACITY, this.length * 2));
  }

  private resize(capacity: number): void {
    const move = <T extends Uint32Array | Float64Array | Uint8Array>(a: T, make: (n: number) => T): T => {
      const next = make(capacity);
      next.set(a.subarray(this.head, this.end));
      return next;
    };
    this.seg = move(this.seg, (n) => new Uint32Array(n));
    this.off = move(this.off, (n) => new Uint32Array(n));
    this.len = move(this.len, (n) => new Uint32Array(n));
    this.seqs = move(this.seqs, (n) => new Float64Array(n));
    this.created = move(this.created, (n) => new Float64Array(n));
    this.hashes = move(this.hashes, (n) => new Uint32Array(n));
    this.twins = move(this.twins, (n) => new Uint8Array(n));
    this.end -= this.head;
    this.head = 0;
  }
}

/** A 32-bit FNV-1a hash of a payload id, to find a cold payload by id. */
export function idHash(id: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) {
    hash ^= id.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

// Base64 into a fresh, aligned buffer (a typed array view needs its element alignment).
function copy(b64: string): Uint8Array {
  const bytes = Buffer.from(b64, 'base64');
  const out = new Uint8Array(bytes.length);
  out.set(bytes);
  return out;
}
