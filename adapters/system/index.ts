export { SystemClock } from './system-clock.js';
export { SystemTimer } from './system-timer.js';
export { CryptoIdSource } from './crypto-id-source.js';
export {
  LOG_LEVELS,
  PinoLogger,
  silentLogger,
  type LogLevel,
  type LogSink,
  type PinoLoggerOptions,
} from './pino-logger.js';
export { isSecretField, redactFields } from './log-redaction.js';
