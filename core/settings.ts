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
