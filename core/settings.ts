import type { Network } from './hooks/definition.js';

/** Deployment-wide values the use cases need; built once by the app from its configuration. */
export type ServiceSettings = {
  /** The one network this deployment serves. */
  network: Network;
  /** Hooks one owner may hold. */
  maxHooksPerOwner: number;
  /** Reported by the status route and in the webhook user agent. */
  serverVersion: string;
};

export const SERVICE_SETTINGS = Symbol.for('stackhooks.ServiceSettings');

/** How webhooks go out; built once by the app from its configuration. */
export type DeliverySettings = {
  /** Payloads in flight at once in the normal lane, across hooks (one per hook at a time). */
  concurrency: number;
  /** Payloads in flight at once in the slow lane, for hooks whose receivers are slow or hang. */
  slowConcurrency: number;
  /** An attempt running this long leaves the normal lane, and its hook counts as slow. */
  slowAfterMs: number;
  /** How long an origin's circuit first stays open after attempts in a row got no answer in time. */
  circuitOpenMs: number;
  /** Timeout of one attempt. */
  timeoutMs: number;
  /** The wait before each attempt; its length is the number of attempts. */
  retryScheduleMs: readonly number[];
  /** How long delivered and failed payloads stay in the delivery log. */
  retentionMs: number;
  /** How long a delivered payload keeps its body for a redelivery (then a redeliver is a 409). */
  deliveredBodyRetentionMs: number;
  /** Deliver to loopback, private and link-local addresses (local receivers, tests). */
  allowPrivateTargets: boolean;
  /** How long a worker holds a payload it is sending before another may take it over (shared outboxes). */
  leaseMs: number;
};

export const DELIVERY_SETTINGS = Symbol.for('stackhooks.DeliverySettings');
