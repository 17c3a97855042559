export { SystemClock } from './system-clock.js';
export { SystemTimer } from './system-timer.js';
export { CryptoIdSource } from './crypto-id-source.js';
export { JsonLogger, silentLogger, type LogSink } from './json-logger.js';
