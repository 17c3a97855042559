import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';

/** One line of an event-replay TSV: a request a node posted, with its raw JSON body. */
export type ReplayLine = {
  /** 1-based line number in the (decompressed) file. */
  line: number;
  id: string;
  received_at: string;
  path: string;
  /** The JSON body as text; bodies may contain tabs, so everything after the third tab. */
  body: string;
};

/** Progress through the file: compressed bytes read of the total. */
export type ReadProgress = { bytesRead: number; totalBytes: number };

/** Bytes read, and decompressed, at a time. */
const CHUNK_BYTES = 1024 * 1024;
const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;

/**
 * Stream the lines of an event-replay TSV (`id \t received_at \t path \t json`; `.gz` decompressed
 * on the fly), the format of the fixtures and of Hiro's full-chain archive. Never loads the file,
 * and reads on only as lines are taken: a consumer busy with one block holds back the reading.
 */
export async function* readReplayTsv(file: string, progress?: ReadProgress): AsyncGenerator<ReplayLine> {
  if (progress) progress.totalBytes = (await stat(file)).size;
  const raw = createReadStream(file, { highWaterMark: CHUNK_BYTES });
  if (progress) raw.on('data', (chunk) => (progress.bytesRead += chunk.length));
  // Large output chunks: gunzip's default 16 KB makes a thread-pool round trip for every 16 KB.
  const input = file.endsWith('.gz') ? raw.pipe(createGunzip({ chunkSize: CHUNK_BYTES })) : raw;
  let line = 0;
  for await (const text of splitLines(input)) {
    line++;
    if (text.trim() === '') continue;
    const a = text.indexOf('\t');
    const b = text.indexOf('\t', a + 1);
    const c = text.indexOf('\t', b + 1);
    if (a < 0 || b < 0 || c < 0) throw new Error(`${file}:${line}: expected 4 tab-separated columns`);
    yield {
      line,
      id: text.slice(0, a),
      received_at: text.slice(a + 1, b),
      path: text.slice(b + 1, c),
      body: text.slice(c + 1),
    };
  }
}

/**
 * The `\n`-separated lines of a byte stream as text, a `\r` before the `\n` dropped. The stream is
 * pulled one chunk at a time, which readline's iterator does not do: it reads ahead by up to a
 * thousand lines, hundreds of MB of busy blocks. Lines are decoded whole, so a UTF-8 character
 * split between two chunks stays intact.
 */
async function* splitLines(input: Readable): AsyncGenerator<string> {
  let partial: Buffer[] = [];
  for await (const chunk of input as AsyncIterable<Buffer>) {
    let start = 0;
    for (let end = chunk.indexOf(NEWLINE); end >= 0; end = chunk.indexOf(NEWLINE, start)) {
      const piece = chunk.subarray(start, end);
      yield decodeLine(partial.length === 0 ? piece : Buffer.concat([...partial, piece]));
      partial = [];
      start = end + 1;
    }
    if (start < chunk.length) partial.push(chunk.subarray(start));
  }
  if (partial.length > 0) yield decodeLine(Buffer.concat(partial));
}

function decodeLine(bytes: Buffer): string {
  const end =
    bytes.length > 0 && bytes[bytes.length - 1] === CARRIAGE_RETURN ? bytes.length - 1 : bytes.length;
  return bytes.toString('utf8', 0, end);
}
