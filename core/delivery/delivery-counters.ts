/**
 * What the dispatcher has done since it started, as plain numbers a metrics adapter can read
 * (`stackhooks.dispatcher.counters`): every field only grows, except the gauges under `now`.
 */
export type DeliveryCounters = {
  /** Attempts started, by the lane they started in. */
  attempts: { normal: number; slow: number };
  /** Attempts that ended with a 2xx. */
  delivered: number;
  /** Attempts that got no answer within the timeout (or whose body never ended). */
  timeouts: number;
  /** Attempts that ran past the slow threshold and moved from the normal to the slow lane. */
  movedToSlowLane: number;
  /** Payloads held back (not attempted) because their hook's lane was full. */
  heldForSlowLane: number;
  /** Payloads held back because their origin's circuit was open or being probed. */
  heldForCircuit: number;
  /** Circuits that opened, and that closed again after a probe was answered. */
  circuitsOpened: number;
  circuitsClosed: number;
  /** Hooks interrupted because a live payload's retries were used up. */
  hooksInterrupted: number;
  /** Gauges: attempts in flight per lane, hooks counted slow, origins with an open circuit. */
  now: { normalInFlight: number; slowInFlight: number; slowHooks: number; openCircuits: number };
};

/** A fresh set of counters, all zero. */
export function newDeliveryCounters(): DeliveryCounters {
  return {
    attempts: { normal: 0, slow: 0 },
    delivered: 0,
    timeouts: 0,
    movedToSlowLane: 0,
    heldForSlowLane: 0,
    heldForCircuit: 0,
    circuitsOpened: 0,
    circuitsClosed: 0,
    hooksInterrupted: 0,
    now: { normalInFlight: 0, slowInFlight: 0, slowHooks: 0, openCircuits: 0 },
  };
}
