/** A wait under way: `elapsed` resolves when it is over; `cancel()` ends it early (then it never resolves). */
export type Wait = { elapsed: Promise<void>; cancel(): void };

/** Waiting a while, for the use cases that bound how long they wait on something; core schedules nothing itself. */
export interface Timer {
  /** Start a wait of `ms` milliseconds. */
  wait(ms: number): Wait;
}

export const TIMER = Symbol.for('stackhooks.Timer');
