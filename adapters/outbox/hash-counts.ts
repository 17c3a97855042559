const EMPTY = 0;
const FIRST_CAPACITY = 1024;

/**
 * How many payloads on disk have each 32-bit id hash: an open-addressing table in typed arrays
 * (about 16 bytes a distinct hash at most half full). It answers "might this id be on disk?" in
 * O(1), so skipping a known id at enqueue does not scan a hook's whole history; a hash it has is
 * then confirmed by reading the candidates' records. Hash 0 is kept apart (0 marks a free slot).
 */
export class HashCounts {
  private keys = new Uint32Array(FIRST_CAPACITY);
  private counts = new Uint32Array(FIRST_CAPACITY);
  private used = 0;
  private zeros = 0;

  /** Count one more payload with `hash`. */
  add(hash: number): void {
    if (hash === EMPTY) {
      this.zeros++;
      return;
    }
    if ((this.used + 1) * 2 > this.keys.length) this.resize(this.keys.length * 2);
    const slot = this.slotOf(hash);
    if (this.keys[slot] === EMPTY) {
      this.keys[slot] = hash;
      this.used++;
    }
    this.counts[slot]++;
  }

  /** Count one payload with `hash` fewer. */
  remove(hash: number): void {
    if (hash === EMPTY) {
      if (this.zeros > 0) this.zeros--;
      return;
    }
    let slot = this.slotOf(hash);
    if (this.keys[slot] === EMPTY) return;
    if (--this.counts[slot] > 0) return;
    // Backward-shift deletion: later keys of the probe chain move up, so no tombstones build up.
    const mask = this.keys.length - 1;
    this.keys[slot] = EMPTY;
    this.used--;
    for (let next = (slot + 1) & mask; this.keys[next] !== EMPTY; next = (next + 1) & mask) {
      const home = this.home(this.keys[next]);
      // The key at `next` may fill `slot` when its home is not between slot (exclusive) and next.
      const between = slot <= next ? home > slot && home <= next : home > slot || home <= next;
      if (between) continue;
      this.keys[slot] = this.keys[next];
      this.counts[slot] = this.counts[next];
      this.keys[next] = EMPTY;
      this.counts[next] = 0;
      slot = next;
    }
  }

  /** Whether some payload with `hash` is counted. */
  has(hash: number): boolean {
    if (hash === EMPTY) return this.zeros > 0;
    return this.keys[this.slotOf(hash)] !== EMPTY;
  }

  // Where `hash` is, or the free slot where it would go.
  private slotOf(hash: number): number {
    const mask = this.keys.length - 1;
    let slot = this.home(hash);
    while (this.keys[slot] !== EMPTY && this.keys[slot] !== hash) slot = (slot + 1) & mask;
    return slot;
  }

  // The FNV hash is already well mixed: its low bits are the home slot (after one more mix).
  private home(hash: number): number {
    return (Math.imul(hash ^ (hash >>> 16), 0x45d9f3b) >>> 0) & (this.keys.length - 1);
  }

  private resize(capacity: number): void {
    const [keys, counts] = [this.keys, this.counts];
    this.keys = new Uint32Array(capacity);
    this.counts = new Uint32Array(capacity);
    for (let i = 0; i < keys.length; i++) {
      if (keys[i] === EMPTY) continue;
      const slot = this.slotOf(keys[i]);
      this.keys[slot] = keys[i];
      this.counts[slot] = counts[i];
    }
  }
}
