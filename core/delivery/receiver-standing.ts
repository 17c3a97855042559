import type { Lane } from './delivery-lanes.js';
import type { CircuitView } from './origin-circuits.js';

/**
 * How delivery treats a hook's receiver right now, as the hook record shows it (a stackhooks
 * extension): the lane its next attempt starts in and the circuit of its URL's origin. Times are
 * unix seconds, as elsewhere in the record.
 */
export type ReceiverStanding = {
  lane: Lane;
  circuit: {
    origin: string;
    state: CircuitView['state'];
    /** Attempts to the origin in a row that got no answer in time. */
    failures: number;
    /** When an open circuit lets a probe through (unix seconds); null while closed. */
    open_until: number | null;
  };
};

/**
 * The standing worth showing: undefined while the hook is in the normal lane and its origin's
 * circuit is closed, so a hook in good standing keeps Hiro's record unchanged.
 */
export function receiverStanding(
  lane: Lane,
  origin: string,
  circuit: CircuitView,
): ReceiverStanding | undefined {
  if (lane === 'normal' && circuit.state === 'closed') return undefined;
  return {
    lane,
    circuit: {
      origin,
      state: circuit.state,
      failures: circuit.failures,
      open_until: circuit.open_until === null ? null : Math.ceil(circuit.open_until / 1000),
    },
  };
}
