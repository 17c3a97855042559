/** When an origin's circuit opens and for how long. */
export type CircuitSettings = {
  /** Costly failures in a row (timeouts, bodies that never end) that open an origin's circuit. */
  openAfterFailures: number;
  /** How long the circuit stays open the first time; each reopening doubles it. */
  openMs: number;
  /** The longest it stays open. */
  maxOpenMs: number;
};

/** `closed`: attempts go; `open`: attempts wait; `half_open`: one probe attempt is in flight. */
export type CircuitState = 'closed' | 'open' | 'half_open';

/** How an attempt ended, as far as its origin's circuit cares. */
export type CircuitOutcome =
  /** The receiver answered with a status (any status) in time, or refused at once: it costs nothing. */
  | 'answered'
  /** No status after holding the attempt for long (a timeout, a drip, a late reset). */
  | 'costly';

/** Whether an attempt may go now, and if not, until when it waits and why. */
export type CircuitVerdict = { go: true; probe: boolean } | { go: false; until: number; reason: string };

/** What the circuit of one origin looks like now. */
export type CircuitView = { state: CircuitState; failures: number; open_until: number | null };

type Circuit = { state: CircuitState; failures: number; openUntil: number; opens: number; probe?: string };

/**
 * A circuit breaker per origin (scheme, host and port), over every hook that sends there: after
 * `openAfterFailures` costly failures in a row, attempts to the origin wait (without counting as
 * attempts) until the circuit half-opens; then one attempt goes as a probe while the others keep
 * waiting. A probe that is answered closes the circuit; one that fails opens it again for twice as
 * long. So a dead origin behind many hooks holds one attempt at a time, not one per hook. Pure:
 * the caller passes the time.
 */
export class OriginCircuits {
  private readonly circuits = new Map<string, Circuit>();

  constructor(private readonly settings: CircuitSettings) {}

  /** May an attempt of `hook` to `origin` start at `now`? While a probe runs, others wait `probeWaitMs`. */
  check(origin: string, hook: string, now: number, probeWaitMs: number): CircuitVerdict {
    const circuit = this.circuits.get(origin);
    if (!circuit || circuit.state === 'closed') return { go: true, probe: false };
    if (circuit.state === 'open' && now >= circuit.openUntil) {
      circuit.state = 'half_open';
      circuit.probe = hook;
      return { go: true, probe: true };
    }
    if (circuit.state === 'half_open') {
      if (circuit.probe === hook) return { go: true, probe: true };
      return {
        go: false,
        until: now + probeWaitMs,
        reason: `${this.why(origin, circuit)}; one attempt is probing it`,
      };
    }
    return {
      go: false,
      until: circuit.openUntil,
      reason: `${this.why(origin, circuit)}; it is probed again then`,
    };
  }

  /** An attempt to `origin` ended; returns `opened` or `closed` when that changed the circuit. */
  settle(
    origin: string,
    hook: string,
    outcome: CircuitOutcome,
    now: number,
  ): 'opened' | 'closed' | undefined {
    const circuit = this.circuits.get(origin);
    if (outcome === 'answered') {
      if (!circuit) return undefined;
      // A late answer from an attempt started before the circuit opened says nothing of the probe.
      if (circuit.state === 'open') return undefined;
      this.circuits.delete(origin);
      return circuit.state === 'half_open' ? 'closed' : undefined;
    }
    if (!circuit) {
      this.circuits.set(origin, { state: 'closed', failures: 1, openUntil: 0, opens: 0 });
      return this.maybeOpen(origin, now);
    }
    circuit.failures++;
    if (circuit.state === 'half_open' && circuit.probe === hook) return this.open(circuit, now);
    return circuit.state === 'closed' ? this.maybeOpen(origin, now) : undefined;
  }

  /** The circuit of an origin as it is now. */
  view(origin: string): CircuitView {
    const circuit = this.circuits.get(origin);
    if (!circuit) return { state: 'closed', failures: 0, open_until: null };
    return {
      state: circuit.state,
      failures: circuit.failures,
      open_until: circuit.state === 'closed' ? null : circuit.openUntil,
    };
  }

  /** How many origins have an open or half-open circuit. */
  openCount(): number {
    let count = 0;
    for (const circuit of this.circuits.values()) if (circuit.state !== 'closed') count++;
    return count;
  }

  private why(origin: string, circuit: Circuit): string {
    return `the circuit for ${origin} is open: ${circuit.failures} attempts in a row got no answer in time`;
  }

  private maybeOpen(origin: string, now: number): 'opened' | undefined {
    const circuit = this.circuits.get(origin)!;
    return circuit.failures >= this.settings.openAfterFailures ? this.open(circuit, now) : undefined;
  }

  private open(circuit: Circuit, now: number): 'opened' {
    const { openMs, maxOpenMs } = this.settings;
    circuit.state = 'open';
    circuit.openUntil = now + Math.min(maxOpenMs, openMs * 2 ** circuit.opens);
    circuit.opens++;
    circuit.probe = undefined;
    return 'opened';
  }
}
