/** Attempts in flight in the normal lane by default: 20 ms receivers at 2,000 deliveries/s need 40. */
export const DEFAULT_DELIVERY_CONCURRENCY = 64;
/** Attempts in flight in the slow lane by default (each holds a connection to a slow receiver). */
export const DEFAULT_SLOW_CONCURRENCY = 256;
/** An attempt running this long leaves the normal lane by default. */
export const DEFAULT_SLOW_AFTER_MS = 1_000;
/** How long an origin's circuit first stays open by default (doubling on each reopening, up to 10 min). */
export const DEFAULT_CIRCUIT_OPEN_MS = 30_000;
/** How long a delivered payload keeps its body for a redelivery by default. */
export const DEFAULT_DELIVERED_BODY_RETENTION_MS = 60 * 60 * 1000;
