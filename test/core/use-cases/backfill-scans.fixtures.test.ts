import { rm } from 'node:fs/promises';
import { expect } from 'chai';
import { runImport } from '../../../apps/cli/import-command.js';
import { BLOCK_STORE, type BlockStore } from '../../../core/ports/block-store.js';
import type { NormalizedBlock } from '../../../core/chain/block.js';
import type { EventFilter } from '../../../core/hooks/definition.js';
import { matchBlockReference } from '../../../core/matching/reference-matcher.js';
import { startBackfillStack, type BackfillStack } from '../../support/backfill-stack.js';
import { sampleDefinition } from '../../support/definitions.js';
import { describeWithFixtures, fixturePath } from '../../support/fixtures.js';
import { makeTempDir } from '../../support/temp-dir.js';
import { derivedFilters } from '../matching/derived-filters.js';

/** The recordings, and whether the chain in them reorganizes (the archive keeps the blocks it left). */
const RECORDINGS = [
  { recording: 'stacks-blockchain-api/mainnet-reorg-scenario1.tsv', reorganizes: true },
  { recording: 'stacks-blockchain-api/mainnet-out-of-order-microblock.tsv', reorganizes: false },
];

/** One filter of each type the chain's transactions give, the first seen. */
function oneFilterPerType(chain: NormalizedBlock[]): EventFilter[] {
  const byType = new Map<string, EventFilter>();
  for (const block of chain) {
    for (const tx of block.transactions) {
      for (const filter of derivedFilters(tx)) {
        // The narrowest of each type tells more than `{type}` alone.
        const known = byType.get(filter.type);
        if (!known || Object.keys(filter).length > Object.keys(known).length) byType.set(filter.type, filter);
      }
    }
  }
  return [...byType.values()];
}

for (const { recording, reorganizes } of RECORDINGS) {
  describeWithFixtures(`BackfillScans on ${recording}`, function () {
    this.timeout(120_000);
    let s: BackfillStack;
    let chain: NormalizedBlock[];
    let tip: number;
    let stored: number;
    let dataDir: string;

    before(async () => {
      // Imported as an operator fills the archive (`stackhooks import`), then served by a fresh instance.
      dataDir = await makeTempDir();
      await runImport(fixturePath(recording), { dataDir, network: 'mainnet' });
      s = await startBackfillStack({ dataDir });
      const store = s.stackhooks.container.get<BlockStore>(BLOCK_STORE);
      stored = await store.count();
      tip = (await store.tip())!.height;
      chain = [];
      for (let height = 0; height <= tip; height++) {
        const block = await store.getCanonicalAt(height);
        if (block) chain.push(block);
      }
    });
    after(async () => {
      await s.stop();
      await rm(dataDir, { recursive: true, force: true });
    });

    it('delivers, for every filter type, the (block, transaction) pairs the matcher finds on the canonical chain, in height order', async () => {
      const filters = oneFilterPerType(chain);
      expect(filters.length).to.be.greaterThan(3);
      for (const filter of filters) {
        const hook = await s.stackhooks.registry.register(
          s.owner,
          sampleDefinition({ filters: { events: [filter as never] } }),
        );
        const requested = await s.stackhooks.backfills.request(s.owner, hook.uuid, { from_block_height: 0 });
        const finished = await s.finished(hook.uuid, requested.id);
        expect(finished.state, filter.type).to.equal('done');

        const expected = chain.flatMap((block) => {
          const txs = matchBlockReference([{ uuid: 'h', filters: [filter] }], block).get('h') ?? [];
          return txs.map(
            (tx) => `${block.block_identifier.index}:${block.transactions[tx].transaction_identifier.hash}`,
          );
        });
        const delivered = s
          .payloads(hook.uuid)
          .flatMap((p) =>
            p.body.event.apply.flatMap((b) =>
              b.transactions.map((tx) => `${b.block_identifier.index}:${tx.transaction_identifier.hash}`),
            ),
          );
        expect(delivered, filter.type).to.deep.equal(expected);
        expect(finished.blocks_matched, filter.type).to.equal(s.payloads(hook.uuid).length);
      }
    });

    if (!reorganizes) return;
    it('delivers only canonical blocks across the stretch the chain reorganized', async () => {
      const hook = await s.stackhooks.registry.register(
        s.owner,
        sampleDefinition({ filters: { events: [{ type: 'coinbase' }] } }),
      );
      const requested = await s.stackhooks.backfills.request(s.owner, hook.uuid, { from_block_height: 0 });
      await s.finished(hook.uuid, requested.id);
      expect(stored, 'the archive holds blocks off the canonical chain').to.be.greaterThan(chain.length);
      const canonical = new Set(chain.map((b) => b.block_identifier.hash));
      const sent = s.payloads(hook.uuid).map((p) => p.apply[0].hash);
      expect(sent.length).to.be.greaterThan(0);
      expect(sent.filter((hash) => !canonical.has(hash))).to.deep.equal([]);
      const heights = s.payloads(hook.uuid).map((p) => p.apply[0].index);
      expect(heights).to.deep.equal([...heights].sort((a, b) => a - b));
    });
  });
}
