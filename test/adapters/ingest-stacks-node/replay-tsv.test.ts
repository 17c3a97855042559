import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { expect } from 'chai';
import { readReplayTsv, type ReadProgress } from '../../../adapters/ingest-stacks-node/index.js';
import { makeTempDir } from '../../support/temp-dir.js';

async function readAll(file: string) {
  const lines = [];
  for await (const line of readReplayTsv(file)) lines.push(line);
  return lines;
}

describe('readReplayTsv', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await makeTempDir();
  });
  afterEach(async () => rm(dir, { recursive: true, force: true }));

  it('splits each line into id, time, path and a body that keeps its own tabs, numbering lines from 1', async () => {
    const file = join(dir, 'events.tsv');
    await writeFile(file, '1\t2024-01-01\t/new_block\t{"a":"x\ty"}\n\n2\t2024-01-02\t/new_burn_block\t{}\n');
    expect(await readAll(file)).to.deep.equal([
      { line: 1, id: '1', received_at: '2024-01-01', path: '/new_block', body: '{"a":"x\ty"}' },
      { line: 3, id: '2', received_at: '2024-01-02', path: '/new_burn_block', body: '{}' },
    ]);
  });

  it('reads CRLF line ends, a last line without one, and a gzipped file alike', async () => {
    const text = '1\tt\t/a\t{}\r\n2\tt\t/b\t[1]';
    const plain = join(dir, 'events.tsv');
    const zipped = join(dir, 'events.tsv.gz');
    await writeFile(plain, text);
    await writeFile(zipped, gzipSync(text));
    for (const file of [plain, zipped]) {
      expect((await readAll(file)).map((l) => [l.path, l.body])).to.deep.equal([
        ['/a', '{}'],
        ['/b', '[1]'],
      ]);
    }
  });

  it('keeps multi-byte characters whole in lines longer than a read chunk', async () => {
    const body = JSON.stringify({ memo: 'é€😀'.repeat(200_000) });
    const file = join(dir, 'events.tsv');
    await writeFile(file, `1\tt\t/new_block\t${body}\n2\tt\t/new_block\t${body}\n`);
    const lines = await readAll(file);
    expect(lines.map((l) => l.body === body)).to.deep.equal([true, true]);
  });

  it('rejects, instead of waiting forever, when a gzipped file cannot be read', async () => {
    const folder = join(dir, 'not-a-file.tsv.gz');
    await mkdir(folder);
    let error: NodeJS.ErrnoException | undefined;
    await readAll(folder).catch((err: NodeJS.ErrnoException) => (error = err));
    expect(error?.code).to.equal('EISDIR');
  });

  it('names the file and line of a line without four columns', async () => {
    const file = join(dir, 'events.tsv');
    await writeFile(file, '1\tt\t/a\t{}\n2\tt\n');
    let error: unknown;
    try {
      await readAll(file);
    } catch (err) {
      error = err;
    }
    expect(String(error)).to.include(`${file}:2: expected 4 tab-separated columns`);
  });

  it('counts the decompressed text of a gzipped file apart from the compressed bytes read', async () => {
    const text = Array.from(
      { length: 200 },
      (_, i) => `${i}\tt\t/new_block\t{"pad":"${'x'.repeat(500)}"}\n`,
    ).join('');
    const file = join(dir, 'events.tsv.gz');
    const zipped = gzipSync(text);
    await writeFile(file, zipped);
    const progress: ReadProgress = { bytesRead: 0, totalBytes: 0, textBytes: 0 };
    for await (const line of readReplayTsv(file, progress)) void line;
    expect(progress).to.deep.equal({
      bytesRead: zipped.length,
      totalBytes: zipped.length,
      textBytes: Buffer.byteLength(text),
    });
  });

  it('reads no more than a few chunks ahead of the line being processed', async () => {
    // 40 lines of 1 MB: a reader that ran ahead would have most of the file in memory.
    const body = JSON.stringify({ pad: 'x'.repeat(1024 * 1024) });
    const file = join(dir, 'events.tsv');
    await writeFile(file, Array.from({ length: 40 }, (_, i) => `${i}\tt\t/new_block\t${body}\n`).join(''));
    const progress: ReadProgress = { bytesRead: 0, totalBytes: 0, textBytes: 0 };
    const lines = readReplayTsv(file, progress);
    await lines.next();
    // Give a read-ahead every chance to happen while the first line is held.
    for (let i = 0; i < 20; i++) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(progress.bytesRead).to.be.at.most(4 * 1024 * 1024);
    expect(progress.totalBytes).to.be.greaterThan(40 * 1024 * 1024);
    await lines.return(undefined);
  });
});
