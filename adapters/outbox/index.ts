export { BodyGoneError } from './body-gone-error.js';
export { FsOutbox, openFsOutbox, type FsOutboxOptions } from './fs-outbox.js';
export { MemoryOutbox } from './memory-outbox.js';
export type { OutboxOptions } from './outbox-memory.js';
