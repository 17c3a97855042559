import { readdir, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'chai';
import { FileRemovals, REMOVING_SUFFIX } from '../../../adapters/outbox/file-removals.js';
import { PayloadSegments } from '../../../adapters/outbox/payload-segments.js';
import { makeTempDir } from '../../support/temp-dir.js';

describe('FileRemovals', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await makeTempDir('stackhooks-removals-');
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const sizeOf = (path: string) =>
    stat(path).then(
      (s) => s.size,
      () => undefined,
    );

  it('takes the name away at once and the file apart a cut at a time', async () => {
    const path = join(dir, '000001.seg');
    await writeFile(path, Buffer.alloc(10_000, 1));
    const removals = new FileRemovals({ cutBytes: 2_000, pauseMs: 30 });
    await removals.remove(path);
    expect(await readdir(dir)).to.deep.equal([`000001.seg${REMOVING_SUFFIX}`]);
    const seen = new Set<number>();
    for (
      let size = await sizeOf(path + REMOVING_SUFFIX);
      size !== undefined;
      size = await sizeOf(path + REMOVING_SUFFIX)
    ) {
      seen.add(size);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await removals.settled();
    expect(await readdir(dir)).to.deep.equal([]);
    // Cut from 10,000 down to 2,000 in steps, not freed at once.
    expect([...seen].filter((size) => size < 10_000)).to.have.length.of.at.least(3);
    expect([...seen]).to.deep.equal([...seen].sort((a, b) => b - a));
  });

  it('removes one file at a time, in the order asked', async () => {
    const removals = new FileRemovals({ cutBytes: 1_000, pauseMs: 20 });
    for (const name of ['a', 'b']) await writeFile(join(dir, name), Buffer.alloc(5_000));
    await removals.remove(join(dir, 'a'));
    await removals.remove(join(dir, 'b'));
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(await sizeOf(join(dir, `a${REMOVING_SUFFIX}`))).to.be.below(5_000);
    expect(await sizeOf(join(dir, `b${REMOVING_SUFFIX}`))).to.equal(5_000);
    await removals.settled();
    expect(await readdir(dir)).to.deep.equal([]);
  });

  it('warns of a removal that fails and goes on with the next', async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.message);
    process.on('warning', onWarning);
    try {
      const removals = new FileRemovals({ cutBytes: 1_000, pauseMs: 1 });
      for (const name of ['gone', 'next']) await writeFile(join(dir, name), Buffer.alloc(3_000));
      await removals.remove(join(dir, 'gone'));
      // Gone before its turn: the removal fails.
      await rm(join(dir, `gone${REMOVING_SUFFIX}`));
      await removals.remove(join(dir, 'next'));
      await removals.settled();
      await new Promise((resolve) => setImmediate(resolve));
      expect(await readdir(dir)).to.deep.equal([]);
      expect(warnings.filter((w) => w.includes(`gone${REMOVING_SUFFIX}`))).to.have.length(1);
    } finally {
      process.off('warning', onWarning);
    }
  });

  it('throws at once when the file to remove does not exist', async () => {
    const error = await new FileRemovals().remove(join(dir, 'missing')).catch((err: unknown) => err);
    expect((error as NodeJS.ErrnoException).code).to.equal('ENOENT');
  });

  it('finishes the removals a crash interrupted when payload segments are next opened', async () => {
    await writeFile(join(dir, `000003.seg${REMOVING_SUFFIX}`), Buffer.alloc(4_000));
    await writeFile(join(dir, '000004.seg'), Buffer.alloc(100));
    const segments = await PayloadSegments.open(
      dir,
      1 << 20,
      new FileRemovals({ cutBytes: 1_000, pauseMs: 1 }),
    );
    await segments.close();
    expect(await readdir(dir)).to.deep.equal(['000004.seg']);
  });
});
