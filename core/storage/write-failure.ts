import { StackhooksError, storeUnavailable } from '../hooks/errors.js';

/** Error codes of a disk with no room left: no space, or the user's quota used up. */
const OUT_OF_SPACE = new Set(['ENOSPC', 'EDQUOT']);

/** Whether an error (or the error it wraps) says the disk has no room left. */
export function isOutOfSpace(err: unknown): boolean {
  for (let at = err; typeof at === 'object' && at !== null; at = (at as { cause?: unknown }).cause) {
    if (OUT_OF_SPACE.has(String((at as { code?: unknown }).code))) return true;
  }
  return false;
}

/** Whether an error comes from the file system (it carries an errno code such as ENOSPC or EIO). */
export function isFileSystemError(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^E[A-Z0-9]+$/.test(code);
}

/**
 * Where file stores report a full disk and their next write that succeeds, so that the service
 * shows the condition while it lasts (`DiskSpaceWatch`).
 */
export type DiskSpaceReport = {
  /** A write of `store` failed; counts only when the disk has no room. */
  failed(store: string, error: unknown): void;
  /** A write of `store` reached the disk. */
  wrote(store: string): void;
};

/**
 * What a file store's caller sees when a write failed: `storeUnavailable` (a 503 for the API and the
 * observer, a block processed again later), because nothing was acknowledged and the same call may
 * succeed once the disk has room, or works, again. `store` names what was written, for the operator.
 */
export function diskWriteFailure(err: unknown, store: string, space?: DiskSpaceReport): StackhooksError {
  if (err instanceof StackhooksError) return err;
  space?.failed(store, err);
  const detail = err instanceof Error ? err.message : String(err);
  const failure = storeUnavailable(
    isOutOfSpace(err) ? `the disk is full (writing the ${store})` : `writing the ${store} failed (${detail})`,
  );
  return Object.assign(failure, { cause: err });
}
