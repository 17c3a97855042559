import { open } from 'node:fs/promises';
import { crc32 } from 'node:zlib';

/** Bytes before each record: payload length (u32 LE), then its CRC-32 (u32 LE). */
const HEADER_BYTES = 8;
/** Reads go in chunks this big, so replaying many small records is not two syscalls each. */
const READ_CHUNK = 4 * 1024 * 1024;

/** Frame a text as a journal record (its UTF-8 bytes encoded straight into the frame). */
export function frameText(text: string): Buffer {
  const length = Buffer.byteLength(text, 'utf8');
  const framed = Buffer.allocUnsafe(HEADER_BYTES + length);
  framed.write(text, HEADER_BYTES, 'utf8');
  framed.writeUInt32LE(length, 0);
  framed.writeUInt32LE(crc32(framed.subarray(HEADER_BYTES)), 4);
  return framed;
}

/** Frame a payload as a journal record: length, checksum, bytes. */
export function frameRecord(payload: Buffer): Buffer {
  const framed = Buffer.allocUnsafe(HEADER_BYTES + payload.length);
  framed.writeUInt32LE(payload.length, 0);
  framed.writeUInt32LE(crc32(payload), 4);
  payload.copy(framed, HEADER_BYTES);
  return framed;
}

/**
 * Hand every intact record of a journal file to `onRecord`, in order, and return where the intact
 * records end. Reading stops at the first record cut short or failing its checksum: that is where
 * a crash stopped a write. An empty record counts as torn too, because a zero-filled tail (blocks
 * allocated but never written) would otherwise pass: the CRC-32 of nothing is 0.
 */
export async function readJournalFile(path: string, onRecord: (payload: Buffer) => void): Promise<number> {
  const handle = await open(path, 'r');
  try {
    const { size } = await handle.stat();
    let buffer = Buffer.alloc(0);
    let bufferStart = 0;
    let at = 0;
    // Make `count` bytes from file offset bufferStart + at available in `buffer`.
    const ensure = async (count: number): Promise<boolean> => {
      if (buffer.length - at >= count) return true;
      const fileOffset = bufferStart + buffer.length;
      const want = Math.min(Math.max(READ_CHUNK, count), size - fileOffset);
      if (buffer.length - at + want < count) return false;
      const chunk = Buffer.allocUnsafe(want);
      const { bytesRead } = await handle.read(chunk, 0, want, fileOffset);
      buffer = Buffer.concat([buffer.subarray(at), chunk.subarray(0, bytesRead)]);
      bufferStart += at;
      at = 0;
      return buffer.length >= count;
    };
    for (;;) {
      if (!(await ensure(HEADER_BYTES))) break;
      const length = buffer.readUInt32LE(at);
      const sum = buffer.readUInt32LE(at + 4);
      if (length === 0 || bufferStart + at + HEADER_BYTES + length > size) break;
      if (!(await ensure(HEADER_BYTES + length))) break;
      const payload = buffer.subarray(at + HEADER_BYTES, at + HEADER_BYTES + length);
      if (crc32(payload) !== sum) break;
      onRecord(payload);
      at += HEADER_BYTES + length;
    }
    return bufferStart + at;
  } finally {
    await handle.close();
  }
}
