import type { Logger } from '../../core/ports/logger.js';

/** Where log lines go; stdout by default. */
export type LogSink = (line: string) => void;

/** One JSON object a line: `{time, level, msg, ...fields}`; debug lines are dropped. */
export class JsonLogger implements Logger {
  constructor(private readonly sink: LogSink = (line) => process.stdout.write(`${line}\n`)) {}

  /** Dropped: this logger has no level setting, and debug is off by default. */
  debug(): void {}

  /** Log at level info. */
  info(message: string, fields: Record<string, unknown> = {}): void {
    this.write('info', message, fields);
  }

  /** Log at level warn. */
  warn(message: string, fields: Record<string, unknown> = {}): void {
    this.write('warn', message, fields);
  }

  /** Log at level error. */
  error(message: string, fields: Record<string, unknown> = {}): void {
    this.write('error', message, fields);
  }

  private write(level: string, msg: string, fields: Record<string, unknown>): void {
    this.sink(JSON.stringify({ time: new Date().toISOString(), level, msg, ...fields }));
  }
}

/** A logger that drops everything, for embedding callers and tests that want quiet. */
export const silentLogger: Logger = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };
