// The real mainnet forks of July 2021 (heights 30, 45 and 47), replayed through the chain model.
import { existsSync } from 'node:fs';
import { expect } from 'chai';
import type { BlockHeader } from '../../../core/chain/block-header.js';
import { applyBlockToChain } from '../../../core/chain/canonical-chain.js';
import type { ChainUpdate } from '../../../core/chain/chain-update.js';
import { MemoryChainView } from '../../../core/chain/memory-chain-view.js';
import { fixturePath, fixturesDir, readReplayTsv } from '../../support/fixtures.js';

const FIXTURE = 'stacks-blockchain-api/mainnet-reorg-scenario1.tsv';

const AT_30_FIRST = '0x65549af908664382673292297d6fad1353b23b8ebff8e69d4b6bef662c621f46';
const AT_30_SECOND = '0x101dc10b0ffda670c34c603ac0ef3f251c3f5b5ca310ec624fb9b32d19d5836c';
const AT_31 = '0xb9d24ac312955f281352866eba5641762774585a1c3c2976289782ec446b2c11';
const AT_45_FIRST = '0x9cb73562d8eabb0cd991f23eac7de8402de27408e40b9827b33854f54e0a46f5';
const AT_45_SECOND = '0x5b3b7490ce5ad15777164ebaae194b01b59f6dd876bca2ca899f29cd797dfa62';
const AT_46 = '0x4b7233bedf7e4a30b424a207f2be0a1156a3404783d191b631c569db0ea92812';
const AT_47_FIRST = '0x4f6dc8e302792fe2e3c5b66ae29db7d6170baa0e2120fb8f7b3c3956bbc3901c';
const AT_47_SECOND = '0x68fb02f8c3b14fee8e8d26f1985439c67d07d999f9831a3a258bdf912ac361df';

type NodeBlockIds = { index_block_hash: string; block_height: number; parent_index_block_hash: string };

const hashes = (headers: BlockHeader[]): string[] => headers.map((header) => header.hash);

if (fixturesDir() !== undefined && existsSync(fixturePath(FIXTURE))) {
  describe('applyBlockToChain on the mainnet reorg recording', () => {
    const view = new MemoryChainView();
    const updates = new Map<string, ChainUpdate>();
    const sent: BlockHeader[] = [];

    before(async () => {
      for await (const request of readReplayTsv(FIXTURE)) {
        if (request.path !== '/new_block') continue;
        const block = request.body as NodeBlockIds;
        const header = {
          hash: block.index_block_hash,
          height: block.block_height,
          parent_hash: block.parent_index_block_hash,
        };
        sent.push(header);
        updates.set(header.hash, await applyBlockToChain(view, header));
      }
    });

    it('reads the 50 blocks the node sent', () => {
      expect(sent).to.have.length(50);
    });

    it('switches to the second block at 30 on arrival, and block 31 then extends it', () => {
      const at31 = sent.find((h) => h.hash === AT_31);
      expect(hashes(updates.get(AT_30_FIRST)?.apply ?? [])).to.deep.equal([AT_30_FIRST]);
      const second = updates.get(AT_30_SECOND) as ChainUpdate;
      expect(hashes(second.rollback)).to.deep.equal([AT_30_FIRST]);
      expect(hashes(second.apply)).to.deep.equal([AT_30_SECOND]);
      expect(updates.get(AT_31)).to.deep.equal({ rollback: [], apply: [at31] });
    });

    it('switches to the second block at 45 on arrival, then back to the first when block 46 builds on it', () => {
      expect(hashes(updates.get(AT_45_FIRST)?.rollback ?? [])).to.deep.equal([]);
      expect(hashes(updates.get(AT_45_FIRST)?.apply ?? [])).to.deep.equal([AT_45_FIRST]);
      const second = updates.get(AT_45_SECOND) as ChainUpdate;
      expect(hashes(second.rollback)).to.deep.equal([AT_45_FIRST]);
      expect(hashes(second.apply)).to.deep.equal([AT_45_SECOND]);
      const back = updates.get(AT_46) as ChainUpdate;
      expect(hashes(back.rollback)).to.deep.equal([AT_45_SECOND]);
      expect(hashes(back.apply)).to.deep.equal([AT_45_FIRST, AT_46]);
    });

    it('switches to the second block at 47 on arrival', () => {
      expect(hashes(updates.get(AT_47_FIRST)?.rollback ?? [])).to.deep.equal([]);
      expect(hashes(updates.get(AT_47_FIRST)?.apply ?? [])).to.deep.equal([AT_47_FIRST]);
      const second = updates.get(AT_47_SECOND) as ChainUpdate;
      expect(hashes(second.rollback)).to.deep.equal([AT_47_FIRST]);
      expect(hashes(second.apply)).to.deep.equal([AT_47_SECOND]);
    });

    it('ends with the blocks the later blocks build on canonical at 30 and 45, and the last block sent at 47', async () => {
      expect(await view.canonicalHashAt(30)).to.equal(AT_30_SECOND);
      expect((await view.header(AT_31))?.parent_hash).to.equal(AT_30_SECOND);
      expect(await view.canonicalHashAt(45)).to.equal(AT_45_FIRST);
      expect((await view.header(AT_46))?.parent_hash).to.equal(AT_45_FIRST);
      expect(sent.filter((h) => h.height === 47).at(-1)?.hash).to.equal(AT_47_SECOND);
      expect(await view.canonicalHashAt(47)).to.equal(AT_47_SECOND);
      expect((await view.tip())?.hash).to.equal(AT_47_SECOND);
    });

    it('ends with every canonical block the parent of the canonical block above it', async () => {
      const chain = view.canonicalChain();
      expect(chain).to.have.length(47);
      for (let i = 1; i < chain.length; i++) {
        expect((await view.header(chain[i]))?.parent_hash).to.equal(chain[i - 1]);
      }
    });

    it('applies every other block as a plain extension of the tip', () => {
      const forkBlocks = new Set([AT_30_SECOND, AT_45_SECOND, AT_46, AT_47_SECOND]);
      for (const header of sent.filter((h) => !forkBlocks.has(h.hash))) {
        expect(updates.get(header.hash), `block ${header.height}`).to.deep.equal({
          rollback: [],
          apply: [header],
        });
      }
    });
  });
} else {
  describe('applyBlockToChain on the mainnet reorg recording', () => {
    it(`is skipped because ${FIXTURE} is absent (set STACKHOOKS_FIXTURES or provide ../shared/fixtures)`);
  });
}
