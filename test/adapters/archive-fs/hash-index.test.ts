import { createHash } from 'node:crypto';
import { rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'chai';
import { HashIndex, decodeSlot, encodeSlot } from '../../../adapters/archive-fs/hash-index.js';
import type { IndexSlot } from '../../../adapters/archive-fs/hash-index.js';
import { makeTempDir } from '../../support/temp-dir.js';

const hashOf = (n: number): string => `0x${createHash('sha256').update(`slot ${n}`).digest('hex')}`;

function slotOf(n: number): IndexSlot {
  return {
    hash: hashOf(n),
    parent_hash: hashOf(n - 1),
    height: n,
    segment: n % 7,
    offset: n * 1000,
    length: 100 + n,
    connected: n % 2 === 0,
  };
}

describe('HashIndex', () => {
  let dir: string;

  beforeEach(async () => {
    dir = await makeTempDir('stackhooks-hash-index-');
  });

  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('encodes a slot in 80 bytes and decodes it back', () => {
    const encoded = encodeSlot(slotOf(42));
    expect(encoded).to.have.length(80);
    expect(decodeSlot(encoded)).to.deep.equal(slotOf(42));
  });

  it('finds every slot it holds after growing well past its first size, and no other', async function () {
    this.timeout(30_000);
    const index = await HashIndex.open(dir);
    const slots = Array.from({ length: 10_000 }, (_, n) => slotOf(n + 1));
    await index.putMany(slots);
    for (const slot of slots) expect(await index.get(slot.hash)).to.deep.equal(slot);
    expect(await index.get(hashOf(20_000))).to.equal(undefined);
    // 10,000 keys over 64 shards outgrow the first 64 slots of each several times over.
    expect((await stat(join(dir, '00.idx'))).size).to.be.greaterThan(16 + 64 * 80 * 2);
    await index.close();
  });

  it('replaces the slot of a hash it already holds', async () => {
    const index = await HashIndex.open(dir);
    await index.putMany([slotOf(1)]);
    await index.putMany([{ ...slotOf(1), connected: true, offset: 7 }]);
    expect(await index.get(hashOf(1))).to.deep.equal({ ...slotOf(1), connected: true, offset: 7 });
    await index.close();
  });

  it('keeps its slots across a reopen', async () => {
    const first = await HashIndex.open(dir);
    await first.putMany(Array.from({ length: 500 }, (_, n) => slotOf(n + 1)));
    await first.close();
    const again = await HashIndex.open(dir);
    for (let n = 1; n <= 500; n++) expect(await again.get(hashOf(n))).to.deep.equal(slotOf(n));
    await again.close();
  });

  it('spreads keys that are not random, such as counters, evenly across its shards', async () => {
    const index = await HashIndex.open(dir);
    const counters = Array.from({ length: 2000 }, (_, n) => ({
      ...slotOf(n),
      hash: `0x${(n + 1).toString(16).padStart(64, '0')}`,
    }));
    await index.putMany(counters);
    for (const slot of counters) expect(await index.get(slot.hash)).to.deep.equal(slot);
    await index.close();
    // About 31 keys a shard: none should have grown past 256 slots (which would mean 180 keys or more).
    for (let n = 0; n < 64; n++) {
      const file = join(dir, `${n.toString(16).padStart(2, '0')}.idx`);
      expect((await stat(file)).size, file).to.be.at.most(16 + 256 * 80);
    }
  });
});
