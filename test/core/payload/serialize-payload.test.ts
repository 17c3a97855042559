import { expect } from 'chai';
import type { NormalizedBlock } from '../../../core/chain/block.js';
import type { HookOptions } from '../../../core/hooks/definition.js';
import { serializePayload, shapePayload, type WebhookPayload } from '../../../core/payload/index.js';
import { everyOptionCombination, sampleBlocks } from './sample-blocks.js';

const HOOK = { uuid: '4f3c2b1a-0000-4000-8000-000000000002', name: 'serialized hook' };

function shape(block: NormalizedBlock, txIndexes: number[], options: HookOptions | null): WebhookPayload {
  return shapePayload({
    hook: { ...HOOK, options },
    network: 'mainnet',
    apply: [{ block, txIndexes }],
    rollback: [{ block, txIndexes }],
  });
}

describe('serializePayload', () => {
  let blocks: NormalizedBlock[];
  before(async () => {
    const { epoch2, nakamoto } = await sampleBlocks();
    blocks = [epoch2, nakamoto];
  });

  it('writes the same text as JSON.stringify for every option combination', () => {
    for (const block of blocks) {
      const all = block.transactions.map((_, i) => i);
      for (const options of [null, ...everyOptionCombination()]) {
        for (const txIndexes of [all, [0], all.slice(1)]) {
          const payload = shape(block, txIndexes, options);
          expect(serializePayload(payload)).to.equal(JSON.stringify(payload));
        }
      }
    }
  });

  it('writes each payload with its own hook when payloads share a shaped block', () => {
    const first = shape(blocks[0], [0], null);
    const second = shapePayload({
      hook: { uuid: 'another', name: 'another hook', options: null },
      network: 'testnet',
      apply: [{ block: blocks[0], txIndexes: [0] }],
      rollback: [],
    });
    expect(second.event.apply[0]).to.equal(first.event.apply[0]);
    serializePayload(first);
    expect(JSON.parse(serializePayload(second))).to.deep.equal(JSON.parse(JSON.stringify(second)));
    expect(serializePayload(second)).to.equal(JSON.stringify(second));
  });

  it('serializes a body of another layout as JSON.stringify does', () => {
    const payload = shape(blocks[0], [0], null);
    const reordered = { event: payload.event, chainhook: payload.chainhook } as WebhookPayload;
    const extra = { ...payload, note: 'kept' } as WebhookPayload;
    const missing = {
      ...payload,
      event: { ...payload.event, rollback: undefined },
    } as unknown as WebhookPayload;
    for (const body of [reordered, extra, missing])
      expect(serializePayload(body)).to.equal(JSON.stringify(body));
  });
});
