import { expect } from 'chai';
import type { NormalizedBlock } from '../../../core/chain/block.js';
import type { EventFilter } from '../../../core/hooks/definition.js';
import { matchBlockReference } from '../../../core/matching/reference-matcher.js';
import type { NodeBlock } from '../../../core/stacks-codec/node-block.js';
import { startBackfillStack, type BackfillStack } from '../../support/backfill-stack.js';
import { sampleDefinition } from '../../support/definitions.js';
import { describeWithFixtures, readReplayTsv } from '../../support/fixtures.js';
import { derivedFilters } from '../matching/derived-filters.js';

const RECORDINGS = [
  'stacks-blockchain-api/mainnet-reorg-scenario1.tsv',
  'stacks-blockchain-api/mainnet-out-of-order-microblock.tsv',
];

async function nodeBlocks(file: string): Promise<NodeBlock[]> {
  const blocks: NodeBlock[] = [];
  for await (const request of readReplayTsv(file)) {
    if (request.path === '/new_block') blocks.push(request.body as NodeBlock);
  }
  return blocks;
}

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

for (const recording of RECORDINGS) {
  describeWithFixtures(`BackfillScans on ${recording}`, function () {
    this.timeout(120_000);
    let s: BackfillStack;
    let chain: NormalizedBlock[];
    let tip: number;

    before(async () => {
      s = await startBackfillStack();
      for (const block of await nodeBlocks(recording)) await s.stackhooks.ingest.ingestNodeBlock(block);
      const store = s.stackhooks.container.get<{
        tip(): Promise<{ height: number } | undefined>;
        getCanonicalAt(height: number): Promise<NormalizedBlock | undefined>;
      }>(Symbol.for('stackhooks.BlockStore'));
      tip = (await store.tip())!.height;
      chain = [];
      for (let height = 0; height <= tip; height++) {
        const block = await store.getCanonicalAt(height);
        if (block) chain.push(block);
      }
    });
    after(async () => s.stop());

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

    it('delivers only canonical blocks across the stretch the chain reorganized', async () => {
      const hook = await s.stackhooks.registry.register(
        s.owner,
        sampleDefinition({ filters: { events: [{ type: 'coinbase' }] } }),
      );
      const requested = await s.stackhooks.backfills.request(s.owner, hook.uuid, { from_block_height: 0 });
      await s.finished(hook.uuid, requested.id);
      const canonical = new Set(chain.map((b) => b.block_identifier.hash));
      const sent = s.payloads(hook.uuid).map((p) => p.apply[0].hash);
      expect(sent.length).to.be.greaterThan(0);
      expect(sent.filter((hash) => !canonical.has(hash))).to.deep.equal([]);
      const heights = s.payloads(hook.uuid).map((p) => p.apply[0].index);
      expect(heights).to.deep.equal([...heights].sort((a, b) => a - b));
    });
  });
}
