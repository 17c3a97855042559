/** Structured log lines: one JSON object a line, so operators can grep and ship them. */
export interface Logger {
  /** Something worth knowing happened (a request served, a hook delivered). */
  info(message: string, fields?: Record<string, unknown>): void;
  /** Something failed that the service survived (a bad write, a fault in a request). */
  error(message: string, fields?: Record<string, unknown>): void;
}

export const LOGGER = Symbol.for('stackhooks.Logger');
