import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createInterface } from 'node:readline';
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

/**
 * Stream the lines of an event-replay TSV (`id \t received_at \t path \t json`; `.gz` decompressed
 * on the fly), the format of the fixtures and of Hiro's full-chain archive. Never loads the file.
 */
export async function* readReplayTsv(file: string, progress?: ReadProgress): AsyncGenerator<ReplayLine> {
  if (progress) progress.totalBytes = (await stat(file)).size;
  const raw = createReadStream(file, { highWaterMark: 1024 * 1024 });
  if (progress) raw.on('data', (chunk) => (progress.bytesRead += chunk.length));
  const input = file.endsWith('.gz') ? raw.pipe(createGunzip()) : raw;
  const lines = createInterface({ input, crlfDelay: Infinity });
  let line = 0;
  for await (const text of lines) {
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
