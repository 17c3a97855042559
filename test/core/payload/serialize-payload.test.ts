import { expect } from 'chai';
import type { NormalizedBlock } from '../../../core/chain/block.js';
import type { HookOptions } from '../../../core/hooks/definition.js';
import {
  payloadTextParts,
  serializePayload,
  shapePayload,
  type PayloadTextParts,
  type WebhookPayload,
} from '../../../core/payload/index.js';
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

/** A payload of another hook for the block's first transaction: it shares the shaped block with `shape`'s. */
function ofAnotherHook(block: NormalizedBlock): WebhookPayload {
  return shapePayload({
    hook: { uuid: 'another', name: 'another hook', options: null },
    network: 'testnet',
    apply: [{ block, txIndexes: [0] }],
    rollback: [],
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
    const second = ofAnotherHook(blocks[0]);
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

/** The text the parts stand for: each own text, then the block after it. */
function joined({ texts, blocks }: PayloadTextParts): string {
  return texts.map((text, i) => text + (blocks[i]?.text ?? '')).join('');
}

describe('payloadTextParts', () => {
  let blocks: NormalizedBlock[];
  before(async () => {
    const { epoch2, nakamoto } = await sampleBlocks();
    blocks = [epoch2, nakamoto];
  });

  it('joins back into the text of JSON.stringify for every option combination', () => {
    for (const block of blocks) {
      const all = block.transactions.map((_, i) => i);
      for (const options of [null, ...everyOptionCombination()]) {
        const payload = shape(block, all, options);
        const parts = payloadTextParts(payload);
        expect(parts.blocks).to.have.length(2);
        expect(joined(parts)).to.equal(JSON.stringify(payload));
      }
    }
  });

  it('gives payloads that share a shaped block that block object and its one text', () => {
    const first = shape(blocks[0], [0], null);
    const second = ofAnotherHook(blocks[0]);
    const [a, b] = [payloadTextParts(first), payloadTextParts(second)];
    expect(b.blocks[0].block).to.equal(a.blocks[0].block);
    expect(b.blocks[0].text).to.equal(a.blocks[0].text);
    expect(b.texts[0]).to.include('another hook').and.not.include(HOOK.name);
    expect(joined(b)).to.equal(JSON.stringify(second));
  });

  it('keeps a body of another layout, or without blocks, as one text', () => {
    const payload = shape(blocks[0], [0], null);
    const reordered = { event: payload.event, chainhook: payload.chainhook } as WebhookPayload;
    const empty = { ...payload, event: { ...payload.event, apply: [], rollback: [] } };
    for (const body of [reordered, empty]) {
      expect(payloadTextParts(body)).to.deep.equal({ texts: [JSON.stringify(body)], blocks: [] });
    }
  });
});
