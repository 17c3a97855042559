import { expect } from 'chai';
import fc from 'fast-check';
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
import { shapeV1Payload } from '../../../core/chainhook-v1/shape-v1-payload.js';
import type { ChainhookV1Payload } from '../../../core/chainhook-v1/v1-payload.js';
import { v1Predicate, v1SampleBlock } from '../chainhook-v1/v1-sample-block.js';

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

/** A predicate's 1.x payload for the block's transactions at `txIndexes`, in apply and in rollback. */
function shapeV1(block: NormalizedBlock, uuid: string, txIndexes: number[], abi: boolean, decode: boolean) {
  return shapeV1Payload({
    uuid,
    predicate: v1Predicate(abi, decode),
    network: 'mainnet',
    apply: [{ block, txIndexes }],
    rollback: [{ block, txIndexes }],
  });
}

/** `include_contract_abi` and `decode_clarity_values`, every combination. */
const V1_VIEWS = [
  [false, false],
  [true, false],
  [false, true],
  [true, true],
] as const;

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

  it('writes the text of JSON.stringify for any hook name and uuid, chain and network, body after body', () => {
    const payload = shape(blocks[0], [0], null);
    const text = fc.string({ unit: 'binary', maxLength: 10 });
    fc.assert(
      fc.property(
        fc.array(fc.tuple(text, text, fc.constantFrom('stacks', ''), text), { minLength: 1 }),
        (rows) => {
          for (const [uuid, name, chain, network] of rows) {
            const body = {
              chainhook: { uuid, name },
              event: { ...payload.event, chain, network },
            } as unknown as WebhookPayload;
            expect(serializePayload(body)).to.equal(JSON.stringify(body));
          }
        },
      ),
    );
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

  describe('with 1.x bodies', () => {
    let v1Block: NormalizedBlock;
    before(async () => {
      v1Block = await v1SampleBlock();
    });

    const v1Shape = (uuid: string, txIndexes: number[], abi: boolean, decode: boolean) =>
      shapeV1(v1Block, uuid, txIndexes, abi, decode);

    it('writes the same text as JSON.stringify for each decode_clarity_values and include_contract_abi', () => {
      for (const [abi, decode] of V1_VIEWS) {
        for (const txIndexes of [[0, 1, 2], [0], [1, 2]]) {
          const payload = v1Shape('u', txIndexes, abi, decode);
          expect(serializePayload(payload)).to.equal(JSON.stringify(payload));
        }
      }
    });

    it('writes each 1.x payload with its own predicate part when payloads share a block', () => {
      const first = v1Shape('first', [0, 2], false, true);
      const second = shapeV1Payload({
        uuid: 'second',
        predicate: { ...v1Predicate(false, true), if_this: { scope: 'txid', equals: '0x00' } },
        network: 'mainnet',
        apply: [{ block: v1Block, txIndexes: [0, 2] }],
        rollback: [],
        streaming: false,
      });
      expect(second.apply[0]).to.equal(first.apply[0]);
      serializePayload(first);
      expect(serializePayload(second)).to.equal(JSON.stringify(second));
    });

    it('serializes a 1.x body of another layout as JSON.stringify does', () => {
      const payload = v1Shape('u', [0], false, false);
      const { apply, rollback, chainhook, events } = payload;
      const reordered = { chainhook, events, apply, rollback } as ChainhookV1Payload;
      const extra = { ...payload, note: 'kept' } as ChainhookV1Payload;
      const missing = { ...payload, events: undefined } as unknown as ChainhookV1Payload;
      for (const body of [reordered, extra, missing])
        expect(serializePayload(body)).to.equal(JSON.stringify(body));
    });
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

  describe('with 1.x bodies', () => {
    let v1Block: NormalizedBlock;
    before(async () => {
      v1Block = await v1SampleBlock();
    });

    it('joins back into the text of JSON.stringify for each decode_clarity_values and include_contract_abi', () => {
      for (const [abi, decode] of V1_VIEWS) {
        const payload = shapeV1(v1Block, 'u', [0, 1, 2], abi, decode);
        const parts = payloadTextParts(payload);
        expect(parts.blocks).to.have.length(2);
        expect(joined(parts)).to.equal(JSON.stringify(payload));
      }
    });

    it('gives 1.x payloads that share a block that block object and its one text, each with its own predicate part', () => {
      const [a, b] = [
        shapeV1(v1Block, 'first', [0], false, false),
        shapeV1(v1Block, 'second', [0], false, false),
      ];
      const [first, second] = [payloadTextParts(a), payloadTextParts(b)];
      expect(second.blocks[0].block).to.equal(first.blocks[0].block);
      expect(second.blocks[0].text).to.equal(first.blocks[0].text);
      expect(second.texts.at(-1)).to.include('"second"').and.not.include('"first"');
      expect(joined(second)).to.equal(JSON.stringify(b));
    });

    it('keeps a 1.x body without blocks, as a signer message payload is, as one text', () => {
      const body = {
        ...shapeV1(v1Block, 'u', [0], false, false),
        apply: [],
        rollback: [],
        events: [{ m: 1 }],
      };
      expect(payloadTextParts(body)).to.deep.equal({ texts: [JSON.stringify(body)], blocks: [] });
    });
  });
});
