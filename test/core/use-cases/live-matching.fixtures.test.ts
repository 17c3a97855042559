import { expect } from 'chai';
import type { NodeBlock } from '../../../core/stacks-codec/node-block.js';
import { validateChainhookEvent } from '../../support/chainhook-event-schema.js';
import { describeWithFixtures, readReplayTsv } from '../../support/fixtures.js';
import { startLiveStack, type LiveStack } from '../../support/live-stack.js';

describeWithFixtures('LiveMatching on mainnet-reorg-scenario1.tsv', function () {
  this.timeout(120_000);
  let s: LiveStack;
  let blocks: NodeBlock[];
  before(async () => {
    blocks = [];
    for await (const request of readReplayTsv('stacks-blockchain-api/mainnet-reorg-scenario1.tsv')) {
      if (request.path === '/new_block') blocks.push(request.body as NodeBlock);
    }
    s = await startLiveStack();
  });
  after(async () => s.stop());

  it('sends a hook that matched the orphaned blocks a rollback of each, in the order the forks happened', async () => {
    const hook = await s.register({
      filters: { events: [{ type: 'coinbase' }] },
      options: { enable_on_registration: true, include_block_metadata: true },
    });
    await s.ingest(...blocks);

    // Worked out from the recording alone: a second block at a height replaces the first on
    // arrival; block 46 builds on the first 45, so the second 45 leaves again.
    const sentAt = (height: number) =>
      blocks.filter((b) => b.block_height === height).map((b) => b.index_block_hash);
    const [first30] = sentAt(30);
    const [first45, second45] = sentAt(45);
    const [first47] = sentAt(47);
    const payloads = s.queue.all().filter((p) => p.hook_uuid === hook.uuid);
    const rollbacks = payloads
      .filter((p) => p.body.event.rollback.length > 0)
      .map((p) => p.body.event.rollback.map((b) => b.block_identifier.hash));
    expect(rollbacks).to.deep.equal([[first30], [first45], [second45], [first47]]);
    for (const payload of payloads) {
      expect(validateChainhookEvent(payload.body)).to.deep.equal([]);
      for (const block of payload.body.event.rollback) expect(block.metadata?.canonical).to.equal(false);
      for (const block of payload.body.event.apply) expect(block.metadata?.canonical).to.equal(true);
    }
    const record = await s.hook(hook.uuid);
    expect(record.status.occurrence_count).to.equal(payloads.length);
  });
});
