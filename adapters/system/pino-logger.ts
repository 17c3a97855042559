import { pino, type Logger as Pino } from 'pino';
import type { Logger } from '../../core/ports/logger.js';
import { redactFields } from './log-redaction.js';
import { prettyLine } from './pretty-line.js';

/** Where log lines go: each JSON line, without its newline. */
export type LogSink = (line: string) => void;

/** The levels `STACKHOOKS_LOG_LEVEL` takes; `silent` logs nothing. */
export const LOG_LEVELS = ['debug', 'info', 'warn', 'error', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** How a `PinoLogger` writes; every field has a default. */
export type PinoLoggerOptions = {
  /** The lowest level written (default `info`). */
  level?: LogLevel;
  /** Where lines go (default: stdout, written synchronously so no line is lost at exit). */
  sink?: LogSink;
  /** Lines for a person on a terminal instead of JSON (default: JSON). */
  pretty?: boolean;
};

/**
 * The service's logger, on pino: one JSON object a line, `{level, time, pid, hostname, …fields,
 * msg}`, with the level as its name and the time in ISO 8601. Every line's fields pass through
 * `redactFields`, so API keys, consumer secrets, `authorization` headers and URL credentials never
 * reach a log, whoever logs them.
 */
export class PinoLogger implements Logger {
  private readonly pino: Pino;

  constructor(options: PinoLoggerOptions = {}) {
    const pretty = options.pretty ?? false;
    const sink = options.sink;
    const colors = pretty && !sink && process.stdout.isTTY === true;
    const destination =
      sink || pretty
        ? {
            write(chunk: string) {
              const line = chunk.endsWith('\n') ? chunk.slice(0, -1) : chunk;
              const out = pretty ? prettyLine(line, colors) : line;
              if (sink) sink(out);
              else process.stdout.write(`${out}\n`);
            },
          }
        : pino.destination({ dest: 1, sync: true });
    this.pino = pino(
      {
        level: options.level ?? 'info',
        timestamp: pino.stdTimeFunctions.isoTime,
        formatters: {
          level: (label) => ({ level: label }),
          log: (fields) => redactFields(fields),
        },
      },
      destination,
    );
  }

  /** Log at level debug (written only when the level is `debug`). */
  debug(message: string, fields: Record<string, unknown> = {}): void {
    this.pino.debug(fields, message);
  }

  /** Log at level info. */
  info(message: string, fields: Record<string, unknown> = {}): void {
    this.pino.info(fields, message);
  }

  /** Log at level warn. */
  warn(message: string, fields: Record<string, unknown> = {}): void {
    this.pino.warn(fields, message);
  }

  /** Log at level error. */
  error(message: string, fields: Record<string, unknown> = {}): void {
    this.pino.error(fields, message);
  }
}

/** A logger that drops everything, for embedding callers and tests that want quiet. */
export const silentLogger: Logger = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };
