import { expect } from 'chai';
import type { NormalizedBlock } from '../../../core/chain/block.js';
import type { NodeBlock } from '../../../core/stacks-codec/node-block.js';
import { normalizeBlock } from '../../../core/stacks-codec/normalize-block.js';
import { HookIndex, matchBlockReference, type BlockMatches } from '../../../core/matching/index.js';
import { describeWithFixtures, readReplayTsv } from '../../support/fixtures.js';
import { FIXTURE_EXPECTATIONS, type FixtureExpectation } from './fixture-expectations/index.js';

/** Every distinct `/new_block` of the file, normalized in file order (a re-sent identical block once). */
async function normalizedBlocks({ file, network }: FixtureExpectation): Promise<NormalizedBlock[]> {
  const seen = new Set<string>();
  const blocks: NormalizedBlock[] = [];
  for await (const request of readReplayTsv(file)) {
    if (request.path !== '/new_block') continue;
    const node = request.body as NodeBlock;
    if (seen.has(node.index_block_hash)) continue;
    seen.add(node.index_block_hash);
    blocks.push(normalizeBlock(node, { network, lookupAbi: () => undefined }).block);
  }
  return blocks;
}

/** The txids a hook matched, block by block, in file order. */
function matchedTxids(blocks: NormalizedBlock[], perBlock: BlockMatches[], uuid: string): string[] {
  return blocks.flatMap((block, b) =>
    (perBlock[b].get(uuid) ?? []).map((i) => block.transactions[i].transaction_identifier.hash),
  );
}

describeWithFixtures('matching real recorded blocks', function () {
  this.timeout(60_000);

  for (const expectation of FIXTURE_EXPECTATIONS) {
    describe(expectation.file, () => {
      const hooks = expectation.hooks.map((hook, i) => ({ uuid: `hook-${i}`, filters: [hook.filter] }));
      let blocks: NormalizedBlock[];
      let indexed: BlockMatches[];
      let reference: BlockMatches[];

      before(async () => {
        blocks = await normalizedBlocks(expectation);
        // All of the file's hooks in one index, as the service holds them.
        const index = new HookIndex();
        for (const hook of hooks) index.add(hook.uuid, hook.filters);
        indexed = blocks.map((block) => index.matchBlock(block));
        reference = blocks.map((block) => matchBlockReference(hooks, block));
      });

      expectation.hooks.forEach((hook, i) => {
        it(hook.behaviour, () => {
          expect(matchedTxids(blocks, indexed, `hook-${i}`), 'index').to.deep.equal(hook.txids);
          expect(matchedTxids(blocks, reference, `hook-${i}`), 'reference').to.deep.equal(hook.txids);
        });
      });
    });
  }

  it('covers all 18 filter types', () => {
    const types = new Set(FIXTURE_EXPECTATIONS.flatMap((e) => e.hooks.map((hook) => hook.filter.type)));
    expect(types.size).to.equal(18);
  });
});
