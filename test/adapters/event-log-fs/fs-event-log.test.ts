import { spawn } from 'node:child_process';
import { appendFile, readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'chai';
import { FsEventLog } from '../../../adapters/event-log-fs/index.js';
import { makeTempDir } from '../../support/temp-dir.js';
import {
  SMALL_SEGMENT_BYTES,
  appendIntoZeroFilledSegments,
  segmentFileSizes,
} from '../../support/zero-filled-segments.js';

describe('FsEventLog', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await makeTempDir('stackhooks-eventlog-');
  });
  afterEach(async () => rm(dir, { recursive: true, force: true }));

  it('numbers entries 1, 2, 3 in arrival order and reads them back', async () => {
    const log = await FsEventLog.open(dir);
    const ids = await Promise.all([
      log.append('/new_block', '{"a":1}', 10),
      log.append('/new_burn_block', '{"b":2}', 11),
      log.append('/new_block', '{"c":"tab\\tin string"}', 12),
    ]);
    expect(ids).to.deep.equal([1, 2, 3]);
    const read = await log.readAfter(0, 10);
    expect(read).to.deep.equal([
      { id: 1, received_at: 10, path: '/new_block', body: '{"a":1}' },
      { id: 2, received_at: 11, path: '/new_burn_block', body: '{"b":2}' },
      { id: 3, received_at: 12, path: '/new_block', body: '{"c":"tab\\tin string"}' },
    ]);
    expect((await log.readAfter(1, 1)).map((e) => e.id)).to.deep.equal([2]);
    expect((await log.readAfter(2, 10)).map((e) => e.id)).to.deep.equal([3]);
    await log.close();
  });

  it('keeps entries and the processed mark across a reopen', async () => {
    const log = await FsEventLog.open(dir);
    for (let i = 0; i < 5; i++) await log.append('/new_block', `{"n":${i}}`, i);
    await log.markProcessed(3);
    await log.close();
    const again = await FsEventLog.open(dir);
    expect(again.lastId()).to.equal(5);
    expect(await again.processedId()).to.equal(3);
    expect((await again.readAfter(3, 10)).map((e) => e.body)).to.deep.equal(['{"n":3}', '{"n":4}']);
    expect(await again.append('/x', '{}', 9)).to.equal(6);
    await again.close();
  });

  it('cuts off a torn tail on open and appends after the last intact entry', async () => {
    const log = await FsEventLog.open(dir);
    await log.append('/new_block', '{"ok":1}', 1);
    await log.append('/new_block', '{"ok":2}', 2);
    await log.close();
    const [segment] = await readdir(dir).then((n) => n.filter((x) => x.endsWith('.log')));
    const intactSize = (await stat(join(dir, segment))).size;
    await appendFile(join(dir, segment), Buffer.from([40, 0, 0, 0, 1, 2, 3, 4, 123, 34]));
    const again = await FsEventLog.open(dir);
    expect((await stat(join(dir, segment))).size).to.equal(intactSize);
    expect(await again.append('/new_block', '{"ok":3}', 3)).to.equal(3);
    expect((await again.readAfter(0, 10)).map((e) => e.body)).to.deep.equal([
      '{"ok":1}',
      '{"ok":2}',
      '{"ok":3}',
    ]);
    await again.close();
  });

  it('cuts off a zero-filled tail (blocks allocated but never written) as torn', async () => {
    const log = await FsEventLog.open(dir);
    await log.append('/new_block', '{"ok":1}', 1);
    await log.close();
    const [segment] = await readdir(dir).then((n) => n.filter((x) => x.endsWith('.log')));
    const intactSize = (await stat(join(dir, segment))).size;
    await appendFile(join(dir, segment), Buffer.alloc(4096));
    const again = await FsEventLog.open(dir);
    expect((await stat(join(dir, segment))).size).to.equal(intactSize);
    expect(await again.append('/new_block', '{"ok":2}', 2)).to.equal(2);
    expect((await again.readAfter(0, 10)).map((e) => e.body)).to.deep.equal(['{"ok":1}', '{"ok":2}']);
    await again.close();
  });

  it('numbers 500 concurrent appends in order and keeps them all', async () => {
    const log = await FsEventLog.open(dir);
    const ids = await Promise.all(Array.from({ length: 500 }, (_, i) => log.append('/p', `{"i":${i}}`, i)));
    expect(ids).to.deep.equal(Array.from({ length: 500 }, (_, i) => i + 1));
    expect((await log.readAfter(0, 1000)).length).to.equal(500);
    await log.close();
  });

  for (const segmentBytes of [undefined, SMALL_SEGMENT_BYTES])
    it(`keeps every acknowledged append when its writer is killed with SIGKILL${segmentBytes ? ', rolling small segments' : ''}`, async function () {
      this.timeout(30_000);
      const script = `
      import { FsEventLog } from './adapters/event-log-fs/index.ts';
      const log = await FsEventLog.open(process.argv[1], { segmentBytes: Number(process.argv[2]) || undefined });
      for (let i = 0; ; i++) {
        const id = await log.append('/new_block', JSON.stringify({ i, pad: 'x'.repeat(i % 5000) }), i);
        if (i % 20 === 0) await new Promise((r) => setTimeout(r, 2));
        process.stdout.write(id + '\\n');
      }`;
      const child = spawn(
        process.execPath,
        ['--import', 'tsx', '--input-type=module', '-e', script, dir, String(segmentBytes ?? '')],
        {
          cwd: process.cwd(),
          stdio: ['ignore', 'pipe', 'inherit'],
        },
      );
      let acked = 0;
      await new Promise<void>((resolve) => {
        child.stdout.on('data', (chunk: Buffer) => {
          const lines = chunk.toString().trim().split('\n');
          acked = Math.max(acked, Number(lines[lines.length - 1]));
          if (acked >= 300) {
            child.kill('SIGKILL');
            resolve();
          }
        });
      });
      await new Promise((r) => child.once('exit', r));
      const log = await FsEventLog.open(dir);
      const all = await log.readAfter(0, 100_000);
      expect(all.length).to.be.at.least(acked);
      all.forEach((e, index) => expect(e.id).to.equal(index + 1));
      await log.close();
    });

  describe('in segments written full of zeros ahead', () => {
    it('appends into them and reads every entry back in order', async () => {
      const log = await FsEventLog.open(dir, { segmentBytes: SMALL_SEGMENT_BYTES });
      const bodies = await appendIntoZeroFilledSegments(log, dir);
      const read = await log.readAfter(0, 10_000);
      expect(read.map((e) => e.body)).to.deep.equal(bodies);
      expect(read.map((e) => e.id)).to.deep.equal(bodies.map((_, i) => i + 1));
      expect((await segmentFileSizes(dir)).every((size) => size <= SMALL_SEGMENT_BYTES)).to.equal(true);
      await log.close();
    });

    it('cuts the unused zeros off its newest segment when reopened and goes on after the last entry', async () => {
      const log = await FsEventLog.open(dir, { segmentBytes: SMALL_SEGMENT_BYTES });
      const bodies = await appendIntoZeroFilledSegments(log, dir);
      await log.close();
      const again = await FsEventLog.open(dir, { segmentBytes: SMALL_SEGMENT_BYTES });
      const sizes = await segmentFileSizes(dir);
      expect(sizes[sizes.length - 1]).to.be.below(SMALL_SEGMENT_BYTES);
      expect((await readdir(dir)).filter((n) => n.includes('zeros'))).to.deep.equal([]);
      expect(await again.append('/new_block', '{"after":1}', 1)).to.equal(bodies.length + 1);
      const read = await again.readAfter(0, 10_000);
      expect(read.map((e) => e.body)).to.deep.equal([...bodies, '{"after":1}']);
      await again.close();
    });

    it('is read by a second instance that follows the writer across its segments', async () => {
      const writer = await FsEventLog.open(dir, { segmentBytes: SMALL_SEGMENT_BYTES });
      const reader = await FsEventLog.open(dir, { segmentBytes: SMALL_SEGMENT_BYTES });
      await reader.appendElsewhere(true);
      const bodies = await appendIntoZeroFilledSegments(writer, dir);
      reader.follow({ id: bodies.length, received_at: bodies.length - 1 });
      expect((await reader.readAfter(0, 10_000)).map((e) => e.body)).to.deep.equal(bodies);
      await writer.close();
      await reader.close();
    });
  });
});
