/**
 * A positional write that may write fewer bytes than asked without failing: write(2) does on a full
 * disk, and Node's `FileHandle.write` then reports the short count, not the ENOSPC that follows.
 * A `FileHandle` is one. `position` null writes at the file's end (a file opened to append).
 */
export type PartialWriter = {
  write(
    buffer: Buffer,
    offset: number,
    length: number,
    position: number | null,
  ): Promise<{ bytesWritten: number }>;
};

/** The synchronous form (`fs.writeSync` on a descriptor): returns the bytes written. */
export type PartialWriterSync = (
  buffer: Buffer,
  offset: number,
  length: number,
  position: number | null,
) => number;

/** Thrown when a write wrote nothing and reported no error: no progress is possible, so it is a failure. */
export class NoWriteProgressError extends Error {
  override readonly name = 'NoWriteProgressError';
  readonly code = 'EIO';
}

/**
 * Write every byte of `bytes` at `position` (or at the end), going on after a short write: the call
 * that follows one either writes the rest or reports why it cannot (ENOSPC, EIO), which is thrown.
 * A throw means an unknown number of the bytes reached the file: the caller cuts them off.
 */
export async function writeAll(file: PartialWriter, bytes: Buffer, position: number | null): Promise<void> {
  for (let done = 0; done < bytes.length;) {
    const at = position === null ? null : position + done;
    const { bytesWritten } = await file.write(bytes, done, bytes.length - done, at);
    if (bytesWritten <= 0) throw new NoWriteProgressError('a file write wrote nothing');
    done += bytesWritten;
  }
}

/** `writeAll` for a synchronous writer. */
export function writeAllSync(write: PartialWriterSync, bytes: Buffer, position: number | null): void {
  for (let done = 0; done < bytes.length;) {
    const written = write(bytes, done, bytes.length - done, position === null ? null : position + done);
    if (written <= 0) throw new NoWriteProgressError('a file write wrote nothing');
    done += written;
  }
}
