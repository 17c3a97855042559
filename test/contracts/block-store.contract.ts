import { expect } from 'chai';
import type { BlockHeader } from '../../core/chain/block-header.js';
import type { NormalizedBlock } from '../../core/chain/block.js';
import { StackhooksError } from '../../core/hooks/errors.js';
import type { BlockStore } from '../../core/ports/block-store.js';
import { ChainBuilder, headerOf, minimalNormalizedBlock } from '../support/block-builder.js';

/** A store under test, fresh and empty, that the suite closes after each test. */
export type BlockStoreSubject = BlockStore & { close(): Promise<void> };

const hashes = (headers: BlockHeader[]): string[] => headers.map((header) => header.hash);

/** A normalized block with content beyond the identifiers, which a store must give back unchanged. */
function blockOf(header: BlockHeader): NormalizedBlock {
  const block = minimalNormalizedBlock(header, 1_700_000_000 + header.height);
  return {
    ...block,
    metadata: { ...block.metadata, tx_total_size: header.height * 3, tx_count: header.height % 5 },
  };
}

/** The behaviour every BlockStore must show; run it against each adapter. */
export function blockStoreContract(name: string, open: () => Promise<BlockStoreSubject>): void {
  describe(`BlockStore contract: ${name}`, () => {
    let store: BlockStoreSubject;
    let chain: ChainBuilder;

    /** `count` more headers on `on`'s branch, each put into the store. */
    async function putChain(on: ChainBuilder, count: number): Promise<BlockHeader[]> {
      const headers = Array.from({ length: count }, () => headerOf(on.next()));
      for (const header of headers) await store.put(blockOf(header));
      return headers;
    }

    beforeEach(async () => {
      store = await open();
      chain = new ChainBuilder({ label: `contract ${name}` });
    });

    afterEach(async () => {
      await store.close();
    });

    it('reports nothing while empty', async () => {
      expect(await store.tip()).to.equal(undefined);
      expect(await store.count()).to.equal(0);
      expect(await store.getCanonicalAt(1)).to.equal(undefined);
      expect(await store.getByHash(`0x${'12'.repeat(32)}`)).to.equal(undefined);
      expect(await store.isCanonical(`0x${'12'.repeat(32)}`)).to.equal(false);
    });

    it('gives a stored block back unchanged by its hash', async () => {
      const header = headerOf(chain.next());
      await store.put(blockOf(header));
      expect(await store.getByHash(header.hash)).to.deep.equal(blockOf(header));
    });

    it('finds a block by a hash in upper case or without 0x', async () => {
      const header = headerOf(chain.next());
      await store.put(blockOf(header));
      expect(await store.getByHash(header.hash.slice(2))).to.deep.equal(blockOf(header));
      expect(await store.isCanonical(`0x${header.hash.slice(2).toUpperCase()}`)).to.equal(true);
    });

    it('stores hashes given in upper case as lowercase 0x hex', async () => {
      const header = headerOf(chain.next());
      const shouted = blockOf(header);
      shouted.block_identifier.hash = header.hash.toUpperCase().replace('0X', '0x');
      await store.put(shouted);
      expect((await store.tip())?.hash).to.equal(header.hash);
      expect((await store.getByHash(header.hash))?.block_identifier.hash).to.equal(header.hash);
    });

    it('makes the first block the tip and the canonical block at its height', async () => {
      const [first] = await putChain(chain, 1);
      expect(await store.tip()).to.deep.equal(first);
      expect(await store.getCanonicalAt(first.height)).to.deep.equal(blockOf(first));
      expect(await store.isCanonical(first.hash)).to.equal(true);
    });

    it('returns the chain update of each put', async () => {
      const [a, b] = Array.from({ length: 2 }, () => headerOf(chain.next()));
      expect(await store.put(blockOf(a))).to.deep.equal({ rollback: [], apply: [a] });
      expect(await store.put(blockOf(b))).to.deep.equal({ rollback: [], apply: [b] });
    });

    it('treats a second put of the same block as a no-op', async () => {
      const [a] = await putChain(chain, 1);
      expect(await store.put(blockOf(a))).to.deep.equal({ rollback: [], apply: [], duplicate: true });
      expect(await store.count()).to.equal(1);
    });

    it('switches to a sibling of the tip, keeping the old tip stored but not canonical', async () => {
      const main = await putChain(chain, 3);
      const sibling = headerOf(chain.forkFrom(main[1].hash).next());
      expect(await store.put(blockOf(sibling))).to.deep.equal({ rollback: [main[2]], apply: [sibling] });
      expect(await store.getByHash(main[2].hash)).to.deep.equal(blockOf(main[2]));
      expect(await store.isCanonical(main[2].hash)).to.equal(false);
      expect(await store.getCanonicalAt(sibling.height)).to.deep.equal(blockOf(sibling));
      expect(await store.tip()).to.deep.equal(sibling);
    });

    it('switches to a block below the tip, leaving nothing canonical above it', async () => {
      const main = await putChain(chain, 4);
      const lower = headerOf(chain.forkFrom(main[0].hash).next());
      const update = await store.put(blockOf(lower));
      expect(hashes(update.rollback)).to.deep.equal([main[3].hash, main[2].hash, main[1].hash]);
      expect(update.apply).to.deep.equal([lower]);
      expect(await store.tip()).to.deep.equal(lower);
      expect(await store.getCanonicalAt(main[2].height)).to.equal(undefined);
      expect(await store.isCanonical(main[3].hash)).to.equal(false);
    });

    it('switches to a new branch at its first block and reports exactly what left and what joined', async () => {
      const main = await putChain(chain, 3);
      const fork = chain.forkFrom(main[0].hash);
      const side = [headerOf(fork.next()), headerOf(fork.next()), headerOf(fork.next())];
      const update = await store.put(blockOf(side[0]));
      expect(hashes(update.rollback)).to.deep.equal([main[2].hash, main[1].hash]);
      expect(hashes(update.apply)).to.deep.equal([side[0].hash]);
      expect(await store.put(blockOf(side[1]))).to.deep.equal({ rollback: [], apply: [side[1]] });
      expect(await store.put(blockOf(side[2]))).to.deep.equal({ rollback: [], apply: [side[2]] });
      expect(await store.isCanonical(main[1].hash)).to.equal(false);
      expect(await store.isCanonical(side[0].hash)).to.equal(true);
      expect(await store.getCanonicalAt(main[1].height)).to.deep.equal(blockOf(side[0]));
      expect(await store.tip()).to.deep.equal(side[2]);
    });

    it('holds an orphan below the tip, returns it by hash, and connects it when its parent arrives', async () => {
      const main = await putChain(chain, 4);
      const fork = chain.forkFrom(main[0].hash);
      const [b, c] = [headerOf(fork.next()), headerOf(fork.next())];
      expect((await store.put(blockOf(c))).apply).to.deep.equal([]);
      expect(await store.getByHash(c.hash)).to.deep.equal(blockOf(c));
      expect(await store.isCanonical(c.hash)).to.equal(false);
      expect(await store.put(blockOf(b))).to.deep.equal({
        rollback: [main[3], main[2], main[1]],
        apply: [b, c],
      });
      expect(await store.getCanonicalAt(c.height)).to.deep.equal(blockOf(c));
    });

    it('refuses a block whose hash is not a 32-byte hex hash, naming the field', async () => {
      const block = blockOf(headerOf(chain.next()));
      block.block_identifier.hash = '0x1234';
      const error = await store.put(block).catch((err: unknown) => err);
      expect(error).to.be.instanceOf(StackhooksError);
      expect((error as StackhooksError).details[0].field).to.equal('block_identifier.hash');
      expect(await store.count()).to.equal(0);
    });

    it('refuses a block whose height does not follow its parent, storing nothing', async () => {
      const [a] = await putChain(chain, 1);
      const b = headerOf(chain.next());
      const error = await store.put(blockOf({ ...b, height: b.height + 2 })).catch((err: unknown) => err);
      expect(error).to.be.instanceOf(StackhooksError);
      expect(await store.getByHash(b.hash)).to.equal(undefined);
      expect(await store.tip()).to.deep.equal(a);
    });

    it('counts every distinct block, canonical or not', async () => {
      const main = await putChain(chain, 3);
      await putChain(chain.forkFrom(main[0].hash), 1);
      await store.put(blockOf(main[1]));
      expect(await store.count()).to.equal(4);
    });

    it('reads a range of canonical blocks in height order, undefined above the tip', async () => {
      const main = await putChain(chain, 5);
      const range = await store.canonicalRange?.(main[1].height, main[4].height + 2);
      expect(range).to.deep.equal([...main.slice(1).map(blockOf), undefined, undefined]);
    });

    it('reads only the canonical branch of a range across a switch, and nothing above a lower tip', async () => {
      const main = await putChain(chain, 5);
      const fork = chain.forkFrom(main[1].hash);
      const side = [headerOf(fork.next()), headerOf(fork.next())];
      for (const header of side) await store.put(blockOf(header));
      const range = await store.canonicalRange?.(main[0].height, main[4].height);
      expect(range).to.deep.equal([blockOf(main[0]), blockOf(main[1]), ...side.map(blockOf), undefined]);
    });

    it('reads a range starting below the first block as undefined there', async () => {
      const [a, b] = await putChain(chain, 2);
      expect(await store.canonicalRange?.(-1, b.height)).to.deep.equal([
        ...Array.from({ length: a.height + 1 }, () => undefined),
        blockOf(a),
        blockOf(b),
      ]);
      expect(await store.canonicalRange?.(b.height, a.height)).to.deep.equal([]);
    });

    it('has no canonical block above the tip or at a negative height', async () => {
      const [a] = await putChain(chain, 1);
      expect(await store.getCanonicalAt(a.height + 1)).to.equal(undefined);
      expect(await store.getCanonicalAt(-1)).to.equal(undefined);
    });
  });
}
