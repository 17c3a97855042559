/** Where an attempt runs: receivers that answer in time share the normal lane, slow ones the slow lane. */
export type Lane = 'normal' | 'slow';

/** How many attempts each lane holds, and when an attempt counts as slow. */
export type LaneSettings = {
  /** Attempts in flight at once for hooks whose receivers answer in time. */
  normalSlots: number;
  /** Attempts in flight at once for hooks whose receivers are slow (or hang). */
  slowSlots: number;
  /** An attempt running this long leaves the normal lane, and its hook counts as slow. */
  slowAfterMs: number;
};

/**
 * The two lanes attempts run in, so that a receiver's slowness costs its own hook and nobody
 * else. Every attempt of a hook in good standing starts in the normal lane; one still running
 * after `slowAfterMs` moves to the slow lane (always: the normal lane never waits on a slow
 * receiver), and its hook counts as slow from then on: its next attempts start in the slow lane,
 * which has slots of its own. A hook whose attempt answers within half of `slowAfterMs` counts
 * as fast again. Pure bookkeeping: the caller reads the clock and calls `review` on time.
 */
export class DeliveryLanes {
  /** Normal-lane attempts by hook, in start order: the first is the next to turn slow. */
  private readonly normalRuns = new Map<string, number>();
  private readonly slowRuns = new Set<string>();
  private readonly slowHooks = new Set<string>();

  constructor(private readonly settings: LaneSettings) {}

  /** How many more attempts each lane can start now. */
  free(): Record<Lane, number> {
    return {
      normal: Math.max(0, this.settings.normalSlots - this.normalRuns.size),
      slow: Math.max(0, this.settings.slowSlots - this.slowRuns.size),
    };
  }

  /** Attempts running in each lane (the slow lane may exceed its slots by attempts moved into it). */
  inFlight(): Record<Lane, number> {
    return { normal: this.normalRuns.size, slow: this.slowRuns.size };
  }

  /** The lane an attempt of this hook belongs in. */
  laneOf(hook: string): Lane {
    return this.slowHooks.has(hook) ? 'slow' : 'normal';
  }

  /** Whether the hook's lane has a free slot now. */
  hasRoom(hook: string): boolean {
    return this.free()[this.laneOf(hook)] > 0;
  }

  /** Hooks that count as slow now. */
  slowCount(): number {
    return this.slowHooks.size;
  }

  /** An attempt of `hook` starts now in its lane; returns the lane. */
  start(hook: string, now: number): Lane {
    const lane = this.laneOf(hook);
    if (lane === 'slow') this.slowRuns.add(hook);
    else this.normalRuns.set(hook, now);
    return lane;
  }

  /**
   * Move the normal lane's attempts that have run `slowAfterMs` to the slow lane and count their
   * hooks as slow; returns the hooks moved (each frees a normal slot).
   */
  review(now: number): string[] {
    const moved: string[] = [];
    for (const [hook, startedAt] of this.normalRuns) {
      if (now - startedAt < this.settings.slowAfterMs) break;
      this.normalRuns.delete(hook);
      this.slowRuns.add(hook);
      this.slowHooks.add(hook);
      moved.push(hook);
    }
    return moved;
  }

  /** When the next normal-lane attempt becomes slow, or undefined when none runs there. */
  nextReviewAt(): number | undefined {
    for (const startedAt of this.normalRuns.values()) return startedAt + this.settings.slowAfterMs;
    return undefined;
  }

  /**
   * The hook's attempt ended after the receiver took `receiverMs` (or it never started: `receiverMs`
   * undefined, its slot is given back and nothing is learned); returns the lane it ended in.
   */
  finish(hook: string, receiverMs?: number): Lane | undefined {
    const lane: Lane | undefined = this.normalRuns.delete(hook)
      ? 'normal'
      : this.slowRuns.delete(hook)
        ? 'slow'
        : undefined;
    if (lane === undefined || receiverMs === undefined) return lane;
    // Between half the threshold and the threshold the hook keeps its standing, so one that
    // answers near the limit does not flap between the lanes.
    if (receiverMs >= this.settings.slowAfterMs) this.slowHooks.add(hook);
    else if (receiverMs < this.settings.slowAfterMs / 2) this.slowHooks.delete(hook);
    return lane;
  }

  /** Forget a hook (deleted): it starts in the normal lane if it ever comes back. */
  forget(hook: string): void {
    this.slowHooks.delete(hook);
  }
}
