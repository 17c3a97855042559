/** Structured log lines: one JSON object a line, so operators can grep and ship them. */
export interface Logger {
  /** Detail for tracing one payload or request (every attempt); off by default. */
  debug(message: string, fields?: Record<string, unknown>): void;
  /** Something worth knowing happened (a request served, a block processed). */
  info(message: string, fields?: Record<string, unknown>): void;
  /** Something is off but the service goes on as designed (a gap, a held orphan, a failed attempt). */
  warn(message: string, fields?: Record<string, unknown>): void;
  /** Something failed that the service survived (a bad write, a fault in a request). */
  error(message: string, fields?: Record<string, unknown>): void;
}

export const LOGGER = Symbol.for('stackhooks.Logger');
