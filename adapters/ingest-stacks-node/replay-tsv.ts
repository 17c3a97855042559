import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createGunzip } from 'node:zlib';
import { pipeline } from 'node:stream';

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

/**
 * Progress through the file: bytes of the file read of its size (compressed, for a `.gz`), which
 * tells how far along the reading is, and bytes of TSV text taken so far (after decompression).
 */
export type ReadProgress = { bytesRead: number; totalBytes: number; textBytes: number };

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
  // pipeline, not pipe: a read error reaches the loop below, and stopping early closes the file.
  const input = file.endsWith('.gz')
    ? pipeline(raw, createGunzip({ chunkSize: CHUNK_BYTES }), () => undefined)
    : raw;
  let line = 0;
  const splitter = new LineSplitter();
  for await (const chunk of input as AsyncIterable<Buffer>) {
    if (progress) progress.textBytes += chunk.length;
    for (const text of splitter.push(chunk)) {
      line++;
      const parsed = parseLine(text, file, line);
      if (parsed) yield parsed;
    }
  }
  const last = splitter.end();
  if (last !== undefined) {
    const parsed = parseLine(last, file, line + 1);
    if (parsed) yield parsed;
  }
}

/** One TSV line as a ReplayLine; undefined for a blank line. */
function parseLine(text: string, file: string, line: number): ReplayLine | undefined {
  if (text.trim() === '') return undefined;
  const a = text.indexOf('\t');
  const b = text.indexOf('\t', a + 1);
  const c = text.indexOf('\t', b + 1);
  if (a < 0 || b < 0 || c < 0) throw new Error(`${file}:${line}: expected 4 tab-separated columns`);
  return {
    line,
    id: text.slice(0, a),
    received_at: text.slice(a + 1, b),
    path: text.slice(b + 1, c),
    body: text.slice(c + 1),
  };
}

/**
 * Splits a byte stream into `\n`-separated lines, a `\r` before the `\n` dropped, one chunk at a
 * time: the caller pulls the next chunk only when it wants more lines, which readline's iterator
 * does not do (it reads ahead by up to a thousand lines, hundreds of MB of busy blocks). Lines are
 * decoded whole, so a UTF-8 character split between two chunks stays intact.
 */
class LineSplitter {
  #partial: Buffer[] = [];

  /** The lines that `chunk` completes, in order. */
  push(chunk: Buffer): string[] {
    const lines: string[] = [];
    let start = 0;
    for (let end = chunk.indexOf(NEWLINE); end >= 0; end = chunk.indexOf(NEWLINE, start)) {
      const piece = chunk.subarray(start, end);
      lines.push(decodeLine(this.#partial.length === 0 ? piece : Buffer.concat([...this.#partial, piece])));
      this.#partial = [];
      start = end + 1;
    }
    if (start < chunk.length) this.#partial.push(chunk.subarray(start));
    return lines;
  }

  /** The last line when the stream did not end with a newline. */
  end(): string | undefined {
    return this.#partial.length > 0 ? decodeLine(Buffer.concat(this.#partial)) : undefined;
  }
}

function decodeLine(bytes: Buffer): string {
  const end =
    bytes.length > 0 && bytes[bytes.length - 1] === CARRIAGE_RETURN ? bytes.length - 1 : bytes.length;
  return bytes.toString('utf8', 0, end);
}
