import { open, type FileHandle } from 'node:fs/promises';
import { crc32 } from 'node:zlib';

/** Bytes before each record's payload: payload length (u32 LE) and its CRC-32 (u32 LE). */
export const RECORD_HEADER_BYTES = 8;

/** One decoded record and where the next one starts. */
export type SegmentRecord = { payload: Buffer; offset: number; next: number };

/** Fill in the header of a record whose payload already follows its first `RECORD_HEADER_BYTES`. */
export function sealRecord(record: Buffer): Buffer {
  const payload = record.subarray(RECORD_HEADER_BYTES);
  record.writeUInt32LE(payload.length, 0);
  record.writeUInt32LE(crc32(payload), 4);
  return record;
}

/**
 * Read records from `offset` until the end or the first record that is cut short or fails its
 * checksum: that is where a crash stopped a write, and everything before it is intact. An empty
 * record counts as torn too (no entry encodes to nothing): a zero-filled tail, blocks a crash left
 * allocated but unwritten, would otherwise pass, the CRC-32 of nothing being 0.
 */
export async function* readRecords(
  handle: FileHandle,
  offset: number,
  size: number,
): AsyncGenerator<SegmentRecord> {
  const header = Buffer.allocUnsafe(RECORD_HEADER_BYTES);
  let at = offset;
  while (at + RECORD_HEADER_BYTES <= size) {
    await handle.read(header, 0, RECORD_HEADER_BYTES, at);
    const length = header.readUInt32LE(0);
    const sum = header.readUInt32LE(4);
    const start = at + RECORD_HEADER_BYTES;
    if (length === 0 || start + length > size) return;
    const payload = Buffer.allocUnsafe(length);
    await handle.read(payload, 0, length, start);
    if (crc32(payload) !== sum) return;
    yield { payload, offset: at, next: start + length };
    at = start + length;
  }
}

/** The end of the intact records of a segment file (a torn tail after it is cut off on open). */
export async function intactLength(
  path: string,
): Promise<{ length: number; records: number; lastPayload?: Buffer }> {
  const handle = await open(path, 'r');
  try {
    const { size } = await handle.stat();
    let length = 0;
    let records = 0;
    let lastPayload: Buffer | undefined;
    for await (const record of readRecords(handle, 0, size)) {
      length = record.next;
      records++;
      lastPayload = record.payload;
    }
    return { length, records, lastPayload };
  } finally {
    await handle.close();
  }
}
