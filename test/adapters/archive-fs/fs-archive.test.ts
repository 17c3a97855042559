import { readFile, readdir, rm, stat, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { openFsArchive } from '../../../adapters/archive-fs/index.js';
import { encodeBlockRecord } from '../../../adapters/archive-fs/block-record.js';
import { HashIndex } from '../../../adapters/archive-fs/hash-index.js';
import { ChainBuilder, minimalNormalizedBlock } from '../../support/block-builder.js';
import { runUntilKilled } from '../../support/kill-after-acks.js';
import { makeTempDir } from '../../support/temp-dir.js';
import { expectConsistent, headerOfStored, minimalChain } from './archive-check.js';

const CRASH_WRITER = fileURLToPath(new URL('./crash-writer.ts', import.meta.url));

/** The last segment file of an archive and its size. */
async function lastSegment(dir: string): Promise<{ file: string; size: number }> {
  const names = (await readdir(join(dir, 'segments'))).filter((name) => name.endsWith('.seg')).sort();
  const file = join(dir, 'segments', names.at(-1) as string);
  return { file, size: (await stat(file)).size };
}

/** A closed archive in `dir` holding a minimal chain of `count` blocks, and the chain. */
async function closedArchiveOf(dir: string, label: string, count: number) {
  const blocks = minimalChain(label, count);
  const archive = await openFsArchive(dir);
  for (const block of blocks) await archive.put(block);
  await archive.close();
  return blocks;
}

describe('openFsArchive', () => {
  let dir: string;

  beforeEach(async () => {
    dir = await makeTempDir('stackhooks-archive-');
  });

  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('keeps blocks, canonical chain, tip and count across a reopen', async () => {
    const blocks = minimalChain('reopen', 50);
    const first = await openFsArchive(dir);
    for (const block of blocks) await first.put(block);
    await first.close();

    const again = await openFsArchive(dir);
    expect(await again.count()).to.equal(50);
    expect(await again.tip()).to.deep.equal(headerOfStored(blocks[49]));
    expect(await again.getByHash(blocks[10].block_identifier.hash)).to.deep.equal(blocks[10]);
    await expectConsistent(again, 1);
    await again.close();
  });

  it('keeps a held orphan across a reopen and connects it when its parent arrives', async () => {
    const chain = new ChainBuilder({ label: 'orphan' });
    const main = Array.from({ length: 4 }, () => minimalNormalizedBlock(chain.next()));
    const fork = chain.forkFrom(main[0].block_identifier.hash);
    const [b, c] = [minimalNormalizedBlock(fork.next()), minimalNormalizedBlock(fork.next())];
    const first = await openFsArchive(dir);
    for (const block of main) await first.put(block);
    await first.put(c);
    await first.close();

    const again = await openFsArchive(dir);
    expect((await again.chainState()).heldOrphans).to.equal(1);
    const update = await again.put(b);
    expect(update.apply.map((header) => header.hash)).to.deep.equal(
      [b, c].map((x) => x.block_identifier.hash),
    );
    await again.close();
  });

  it('keeps a reorg across a reopen', async () => {
    const chain = new ChainBuilder({ label: 'reorg' });
    const main = Array.from({ length: 5 }, () => minimalNormalizedBlock(chain.next()));
    const fork = chain.forkFrom(main[1].block_identifier.hash);
    const side = Array.from({ length: 4 }, () => minimalNormalizedBlock(fork.next()));
    const first = await openFsArchive(dir);
    for (const block of [...main, ...side]) await first.put(block);
    await first.close();

    const again = await openFsArchive(dir);
    expect(await again.isCanonical(main[2].block_identifier.hash)).to.equal(false);
    expect(await again.isCanonical(side[3].block_identifier.hash)).to.equal(true);
    expect(await again.getCanonicalAt(main[2].block_identifier.index)).to.deep.equal(side[0]);
    await again.close();
  });

  it('keeps a switch to a lower block across a reopen, with nothing canonical above the new tip', async () => {
    const chain = new ChainBuilder({ label: 'lower' });
    const main = Array.from({ length: 5 }, () => minimalNormalizedBlock(chain.next()));
    const lower = minimalNormalizedBlock(chain.forkFrom(main[1].block_identifier.hash).next());
    const first = await openFsArchive(dir);
    for (const block of main) await first.put(block);
    const update = await first.put(lower);
    expect(update.rollback.map((header) => header.hash)).to.deep.equal(
      [main[4], main[3], main[2]].map((block) => block.block_identifier.hash),
    );
    expect(update.apply).to.deep.equal([headerOfStored(lower)]);
    await first.close();

    const again = await openFsArchive(dir);
    expect(await again.tip()).to.deep.equal(headerOfStored(lower));
    expect(await again.getCanonicalAt(main[3].block_identifier.index)).to.equal(undefined);
    expect(await again.isCanonical(main[4].block_identifier.hash)).to.equal(false);
    await expectConsistent(again, 1);
    const next = minimalNormalizedBlock(chain.next());
    const back = await again.put(next);
    expect(back.rollback).to.deep.equal([headerOfStored(lower)]);
    expect(back.apply).to.deep.equal([main[2], main[3], main[4], next].map(headerOfStored));
    await expectConsistent(again, 1);
    await again.close();
  });

  it('recovers puts that were never checkpointed from the log on reopen', async () => {
    const blocks = minimalChain('unsynced', 20);
    const first = await openFsArchive(dir, { checkpointEvery: 1_000_000, checkpointAfterMs: 3_600_000 });
    for (const block of blocks) await first.put(block);
    // Never closed, as if the process had died: the overlay was never written, only the log holds
    // the 20 puts. (Its files stay open until this test process exits.)
    const again = await openFsArchive(dir);
    expect(await again.count()).to.equal(20);
    expect(await again.tip()).to.deep.equal(headerOfStored(blocks[19]));
    await expectConsistent(again, 1);
    await again.close();
  });

  it('cuts a torn last record on reopen and stays consistent', async () => {
    const blocks = await closedArchiveOf(dir, 'torn', 30);
    const { file, size } = await lastSegment(dir);
    await truncate(file, size - 10);

    const again = await openFsArchive(dir);
    expect(await again.count()).to.equal(29);
    expect(await again.getByHash(blocks[29].block_identifier.hash)).to.equal(undefined);
    expect(await again.tip()).to.deep.equal(headerOfStored(blocks[28]));
    await expectConsistent(again, 1);
    expect((await again.put(blocks[29])).apply).to.deep.equal([headerOfStored(blocks[29])]);
    await again.close();
  });

  it('re-indexes from the first record when a segment lost many records', async () => {
    const blocks = minimalChain('halved', 40);
    const first = await openFsArchive(dir, { segmentBytes: 4096 });
    for (const block of blocks) await first.put(block);
    await first.close();
    const { file, size } = await lastSegment(dir);
    await truncate(file, Math.floor(size / 2));

    const again = await openFsArchive(dir, { segmentBytes: 4096 });
    const count = await again.count();
    expect(count).to.be.within(30, 39);
    expect(await again.tip()).to.deep.equal(headerOfStored(blocks[count - 1]));
    expect(await again.getByHash(blocks[count].block_identifier.hash)).to.equal(undefined);
    await expectConsistent(again, 1);
    for (const block of blocks.slice(count)) await again.put(block);
    expect(await again.tip()).to.deep.equal(headerOfStored(blocks[39]));
    await again.close();
  });

  it('spreads the log over segment files of the configured size and reads from all of them', async () => {
    const blocks = minimalChain('segments', 60);
    const archive = await openFsArchive(dir, { segmentBytes: 2048 });
    for (const block of blocks) await archive.put(block);
    const segments = await readdir(join(dir, 'segments'));
    expect(segments.length).to.be.greaterThan(5);
    for (const name of segments) expect((await stat(join(dir, 'segments', name))).size).to.be.at.most(2048);
    for (const block of blocks)
      expect(await archive.getByHash(block.block_identifier.hash)).to.deep.equal(block);
    await archive.close();
  });

  it('answers the tip and the count without waiting for a range read queued before', async () => {
    const blocks = minimalChain('settled', 40);
    const archive = await openFsArchive(dir);
    for (const block of blocks) await archive.put(block);
    const answered: string[] = [];
    const reading = archive.canonicalRange(1, 40).then(() => answered.push('range'));
    // The chain state also lists the quarantine folder, a read of its own: only its answer is checked.
    const state = archive.chainState();
    const status = Promise.all([archive.tip(), archive.count()]).then(([tip, count]) => {
      answered.push('status');
      expect(tip).to.deep.equal(headerOfStored(blocks[39]));
      expect(count).to.equal(40);
    });
    await Promise.all([reading, status]);
    expect(answered).to.deep.equal(['status', 'range']);
    expect((await state).gaps).to.deep.equal([]);
    await archive.close();
  });

  it('answers the tip as the last whole put left it while another put is under way', async () => {
    const blocks = minimalChain('settled-put', 3);
    const archive = await openFsArchive(dir);
    for (const block of blocks.slice(0, 2)) await archive.put(block);
    const putting = archive.put(blocks[2]);
    expect(await archive.tip()).to.deep.equal(headerOfStored(blocks[1]));
    expect(await archive.count()).to.equal(2);
    await putting;
    expect(await archive.tip()).to.deep.equal(headerOfStored(blocks[2]));
    expect(await archive.count()).to.equal(3);
    await archive.close();
  });

  it('ends a range read before the block that would take it past rangeReadBytes, and answers one block at least', async () => {
    const blocks = minimalChain('range-bytes', 10);
    // A record is its block's JSON body behind 80 bytes of framing and header.
    const recordBytes = Math.max(...blocks.map((block) => 80 + encodeBlockRecord(block).length));
    const archive = await openFsArchive(dir, { rangeReadBytes: Math.floor(2.5 * recordBytes) });
    for (const block of blocks) await archive.put(block);
    const first = blocks[0].block_identifier.index;
    const hashes = (range: unknown[]) =>
      range.map((block) => (block as (typeof blocks)[0] | undefined)?.block_identifier.hash);
    expect(hashes(await archive.canonicalRange(first - 2, first + 9))).to.deep.equal([
      undefined,
      undefined,
      ...blocks.slice(0, 2).map((block) => block.block_identifier.hash),
    ]);
    await archive.close();
    const tight = await openFsArchive(dir, { rangeReadBytes: 1 });
    expect(hashes(await tight.canonicalRange(first + 3, first + 9))).to.deep.equal([
      blocks[3].block_identifier.hash,
    ]);
    await tight.close();
  });

  it('reads a range of a chain stored in height order with one index lookup, the rest from the log in a row', async () => {
    const blocks = minimalChain('range-walk', 40);
    const archive = await openFsArchive(dir);
    for (const block of blocks) await archive.put(block);
    // Checkpointed, so every lookup goes to the index files rather than the overlay in memory.
    await archive.sync();
    const lookup = HashIndex.prototype.get;
    let lookups = 0;
    HashIndex.prototype.get = function (hash: string) {
      lookups++;
      return lookup.call(this, hash);
    };
    try {
      const first = blocks[0].block_identifier.index;
      const range = await archive.canonicalRange(first + 4, first + 35);
      expect(range).to.deep.equal(blocks.slice(4, 36));
      expect(lookups).to.equal(1);
    } finally {
      HashIndex.prototype.get = lookup;
      await archive.close();
    }
  });

  it('refuses a range whose record was damaged on disk', async () => {
    const blocks = await closedArchiveOf(dir, 'range-damaged', 5);
    const { file } = await lastSegment(dir);
    const bytes = await readFile(file);
    // The last record's body: its crc no longer matches.
    bytes[bytes.length - 3] ^= 0xff;
    await writeFile(file, bytes);
    const again = await openFsArchive(dir);
    const start = blocks[0].block_identifier.index;
    const error = await again.canonicalRange(start, start + 4).catch((err: Error) => err);
    expect((error as Error).message).to.match(/damaged/);
    await again.close();
  });

  it('refuses every call after close', async () => {
    const archive = await openFsArchive(dir);
    await archive.close();
    const error = await archive.tip().catch((err: Error) => err);
    expect((error as Error).message).to.match(/closed/);
  });
});

/** Run the crash writer on `dir` and SIGKILL it soon after `acks` acknowledged puts; every hash it acked. */
function putUntilKilled(dir: string, acks: number): Promise<string[]> {
  return runUntilKilled(CRASH_WRITER, [dir], acks);
}

describe('fs archive crash safety', () => {
  let dir: string;
  let acked: string[] = [];

  before(async () => {
    dir = await makeTempDir('stackhooks-archive-crash-');
  });

  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  for (const round of [1, 2, 3]) {
    it(`keeps every acknowledged put when the writer is killed mid-stream (round ${round})`, async function () {
      this.timeout(60_000);
      acked = [...new Set([...acked, ...(await putUntilKilled(dir, 400 * round))])];
      const archive = await openFsArchive(dir);
      try {
        for (const hash of acked) expect(await archive.getByHash(hash), hash).to.not.equal(undefined);
        expect(await archive.count()).to.be.at.least(acked.length);
        await expectConsistent(archive, 1);
      } finally {
        await archive.close();
      }
    });
  }
});
