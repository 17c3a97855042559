import { describeDatabaseError, isConnectionFailure } from './connection-failure.js';

/** What changed in the store's view of its database. */
export type DatabaseHealthEvent =
  /** One connection failed (a terminated backend, a dropped socket) but the database still answers. */
  | { kind: 'connection_lost'; error: string }
  /** The database does not answer: every query fails until it is back. */
  | { kind: 'unreachable'; error: string }
  /** It answers again after `downMs` unreachable. */
  | { kind: 'reachable'; downMs: number };

/** Plain counters a metrics adapter can read (they only grow). */
export type DatabaseCounters = {
  /** Queries or idle connections that failed because a connection was lost or refused. */
  connectionFailures: number;
  /** Times the database became unreachable (each ended by a `reachable` event, unless still down). */
  outages: number;
};

/** How often an unreachable database is asked again, and how long one try may take. */
const FIRST_PROBE_MS = 250;
const MAX_PROBE_MS = 2_000;
const PROBE_TIMEOUT_MS = 5_000;

/**
 * Whether the database answers, as seen from the queries of one pool. A query that fails for lack
 * of a connection triggers one check of its own: if the database answers, only that connection was
 * lost (a killed backend); if not, the database is unreachable and is asked again with back-off
 * until it answers, so the state clears within seconds of its return even when nothing else queries.
 */
export class ConnectionHealth {
  readonly counters: DatabaseCounters = { connectionFailures: 0, outages: 0 };
  #reachable = true;
  #downSince = 0;
  #checking = false;
  #closed = false;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #delay = FIRST_PROBE_MS;
  readonly #listeners: ((event: DatabaseHealthEvent) => void)[] = [];

  /** `probe` asks the database one trivial question, outside the health tracking. */
  constructor(private readonly probe: () => Promise<unknown>) {}

  /** Whether the database answered the last question asked of it. */
  get reachable(): boolean {
    return this.#reachable;
  }

  /** Be told of every change (to log it and raise or clear a condition). */
  onChange(listener: (event: DatabaseHealthEvent) => void): void {
    this.#listeners.push(listener);
  }

  /** A query answered: the database is reachable. */
  succeeded(): void {
    if (!this.#reachable) this.#back();
  }

  /** A query or an idle connection failed; a lost or refused connection starts a check. */
  failed(err: unknown): void {
    if (this.#closed || !isConnectionFailure(err)) return;
    this.counters.connectionFailures++;
    if (!this.#reachable || this.#checking) return;
    this.#checking = true;
    this.#ask().then(
      () => {
        this.#checking = false;
        if (this.#reachable) this.#emit({ kind: 'connection_lost', error: describeDatabaseError(err) });
      },
      (probeErr: unknown) => {
        this.#checking = false;
        if (this.#closed || !this.#reachable) return;
        this.#reachable = false;
        this.#downSince = Date.now();
        this.counters.outages++;
        this.#emit({ kind: 'unreachable', error: describeDatabaseError(probeErr) });
        this.#delay = FIRST_PROBE_MS;
        this.#schedule();
      },
    );
  }

  /** Stop asking (the pool is closing). */
  close(): void {
    this.#closed = true;
    clearTimeout(this.#timer);
  }

  #schedule(): void {
    if (this.#closed || this.#reachable) return;
    this.#timer = setTimeout(() => {
      this.#ask().then(
        () => this.succeeded(),
        () => this.#schedule(),
      );
    }, this.#delay);
    // Waiting for the database is no reason to keep a process alive.
    this.#timer.unref();
    this.#delay = Math.min(this.#delay * 2, MAX_PROBE_MS);
  }

  #back(): void {
    if (this.#closed) return;
    this.#reachable = true;
    clearTimeout(this.#timer);
    this.#emit({ kind: 'reachable', downMs: Date.now() - this.#downSince });
  }

  async #ask(): Promise<void> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('the database did not answer in time')), PROBE_TIMEOUT_MS);
    });
    try {
      await Promise.race([this.probe(), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  #emit(event: DatabaseHealthEvent): void {
    for (const listener of this.#listeners) {
      try {
        listener(event);
      } catch {
        // A listener's fault must not stop the others or the tracking.
      }
    }
  }
}
