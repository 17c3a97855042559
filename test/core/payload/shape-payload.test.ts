import { expect } from 'chai';
import type { NormalizedBlock } from '../../../core/chain/block.js';
import type { HookOptions } from '../../../core/hooks/definition.js';
import { shapePayload, type BlockMatch, type WebhookPayload } from '../../../core/payload/index.js';
import { validateChainhookEvent } from '../../support/chainhook-event-schema.js';
import { MICROBLOCK, TX, deepFreeze, everyOptionCombination, sampleBlocks } from './sample-blocks.js';

const HOOK = { uuid: '4f3c2b1a-0000-4000-8000-000000000001', name: 'sample hook' };
const ALL_ON: HookOptions = everyOptionCombination().at(-1)!;

/** Every transaction index of a block. */
const all = (block: NormalizedBlock): number[] => block.transactions.map((_, i) => i);

function shape(
  apply: BlockMatch[],
  rollback: BlockMatch[] = [],
  options: HookOptions | null = ALL_ON,
): WebhookPayload {
  return shapePayload({ hook: { ...HOOK, options }, network: 'mainnet', apply, rollback });
}

// The documented key order of each object kind; a payload shows a subsequence of it.
const KEY_ORDER = {
  block: ['block_identifier', 'parent_block_identifier', 'timestamp', 'transactions', 'metadata'],
  blockMetadata: [
    'canonical',
    'burn_block_identifier',
    'burn_block_timestamp',
    'parent_microblock_identifier',
    'tenure_height',
    'execution_cost',
    'tx_total_size',
    'tx_count',
    'signatures',
  ],
  transaction: ['transaction_identifier', 'operations', 'metadata'],
  transactionMetadata: [
    'type',
    'status',
    'result',
    'sender_address',
    'sponsor_address',
    'sponsored',
    'fee_rate',
    'nonce',
    'position',
    'execution_cost',
    'vm_error',
    'canonical',
    'microblock_canonical',
    'raw_tx',
    'post_conditions',
  ],
  operation: ['operation_identifier', 'status', 'type', 'account', 'amount', 'metadata'],
};

function expectKeyOrder(value: object, order: string[], where: string): void {
  const keys = Object.keys(value);
  expect(keys, where).to.deep.equal(order.filter((key) => keys.includes(key)));
}

describe('shapePayload', () => {
  let epoch2: NormalizedBlock;
  let nakamoto: NormalizedBlock;
  before(async () => {
    ({ epoch2, nakamoto } = await sampleBlocks());
  });

  it("names the hook by uuid and name and the event by chain 'stacks' and the given network", () => {
    const body = shapePayload({
      hook: { ...HOOK, options: null },
      network: 'testnet',
      apply: [{ block: epoch2, txIndexes: [] }],
      rollback: [],
    });
    expect(body.chainhook).to.deep.equal(HOOK);
    expect(body.event.chain).to.equal('stacks');
    expect(body.event.network).to.equal('testnet');
  });

  it('keeps apply and rollback blocks in the order given', () => {
    const body = shape(
      [
        { block: epoch2, txIndexes: [0] },
        { block: nakamoto, txIndexes: [0] },
      ],
      [
        { block: nakamoto, txIndexes: [1] },
        { block: epoch2, txIndexes: [1] },
      ],
    );
    const hashes = (blocks: { block_identifier: { hash: string } }[]) =>
      blocks.map((b) => b.block_identifier.hash);
    expect(hashes(body.event.apply)).to.deep.equal([epoch2, nakamoto].map((b) => b.block_identifier.hash));
    expect(hashes(body.event.rollback)).to.deep.equal([nakamoto, epoch2].map((b) => b.block_identifier.hash));
  });

  it('marks blocks, transactions and microblock transactions canonical inside apply', () => {
    const [block] = shape([{ block: epoch2, txIndexes: all(epoch2) }]).event.apply;
    expect(block.transactions[TX.transfer].metadata.position.microblock_identifier).to.deep.equal(MICROBLOCK);
    expect(block.metadata?.canonical).to.equal(true);
    for (const tx of block.transactions) {
      expect(tx.metadata.canonical).to.equal(true);
      expect(tx.metadata.microblock_canonical).to.equal(true);
    }
  });

  it('marks blocks, transactions and microblock transactions not canonical inside rollback', () => {
    const [block] = shape([], [{ block: epoch2, txIndexes: all(epoch2) }]).event.rollback;
    expect(block.metadata?.canonical).to.equal(false);
    for (const tx of block.transactions) {
      expect(tx.metadata.canonical).to.equal(false);
      expect(tx.metadata.microblock_canonical).to.equal(false);
    }
  });

  it('shows the same block canonical in apply and not canonical in rollback of one payload', () => {
    const match = { block: epoch2, txIndexes: [TX.transfer] };
    const { apply, rollback } = shape([match], [match]).event;
    expect([apply[0].metadata?.canonical, apply[0].transactions[0].metadata.canonical]).to.deep.equal([
      true,
      true,
    ]);
    expect([rollback[0].metadata?.canonical, rollback[0].transactions[0].metadata.canonical]).to.deep.equal([
      false,
      false,
    ]);
  });

  it('lists only the matched transactions, in block order', () => {
    const [block] = shape([{ block: epoch2, txIndexes: [TX.call, TX.guarded] }]).event.apply;
    expect(block.transactions.map((t) => t.transaction_identifier.hash)).to.deep.equal([
      epoch2.transactions[TX.call].transaction_identifier.hash,
      epoch2.transactions[TX.guarded].transaction_identifier.hash,
    ]);
  });

  it('gives hooks that matched the same several transactions of a block one block, and another set its own', () => {
    const first = shape([{ block: epoch2, txIndexes: [TX.call, TX.guarded] }]).event.apply[0];
    const again = shape([{ block: epoch2, txIndexes: [TX.call, TX.guarded] }]).event.apply[0];
    const other = shape([{ block: epoch2, txIndexes: [TX.call, TX.transfer] }]).event.apply[0];
    const otherView = shape([{ block: epoch2, txIndexes: [TX.call, TX.guarded] }], [], null).event.apply[0];
    expect(again).to.equal(first);
    expect(other).to.not.equal(first);
    expect(other.transactions.map((t) => t.transaction_identifier.hash)).to.deep.equal([
      epoch2.transactions[TX.call].transaction_identifier.hash,
      epoch2.transactions[TX.transfer].transaction_identifier.hash,
    ]);
    expect(otherView).to.not.equal(first);
    expect(otherView.metadata).to.equal(undefined);
  });

  it('keeps every operation of a matched transaction, numbered from 0 in normalized order', () => {
    for (const options of [null, ALL_ON]) {
      const [block] = shape([{ block: epoch2, txIndexes: [TX.call] }], [], options).event.apply;
      const ops = block.transactions[0].operations;
      expect(ops.map((op) => op.type)).to.deep.equal(['fee', 'contract_call', 'contract_log', 'token_mint']);
      expect(ops.map((op) => op.operation_identifier.index)).to.deep.equal([0, 1, 2, 3]);
    }
  });

  it('shows a block with no matched transaction with an empty transaction list', () => {
    const [block] = shape([], [{ block: nakamoto, txIndexes: [] }]).event.rollback;
    expect(block.transactions).to.deep.equal([]);
  });

  it('treats null, undefined and empty options alike, as every option off', () => {
    const off = everyOptionCombination()[0];
    const apply = [{ block: epoch2, txIndexes: all(epoch2) }];
    const bodies = [null, undefined, {}, off].map((options) =>
      JSON.stringify(shapePayload({ hook: { ...HOOK, options }, network: 'mainnet', apply, rollback: [] })),
    );
    expect(new Set(bodies).size).to.equal(1);
  });

  it('ignores the options that do not shape payloads', () => {
    const match = { block: epoch2, txIndexes: all(epoch2) };
    const plain = JSON.stringify(shape([match], [], {}));
    const other = shape([match], [], { enable_on_registration: true, expire_after_occurrences: 3 });
    expect(JSON.stringify(other)).to.equal(plain);
  });

  it('never mutates the normalized blocks it shapes, under every option combination', async () => {
    const frozen = deepFreeze(await sampleBlocks());
    const before = JSON.stringify(frozen);
    for (const options of everyOptionCombination()) {
      const matches = [
        { block: frozen.epoch2, txIndexes: all(frozen.epoch2) },
        { block: frozen.nakamoto, txIndexes: [1] },
      ];
      JSON.stringify(shape(matches, matches, options));
    }
    expect(JSON.stringify(frozen)).to.equal(before);
  });

  it('gives the same body for the same input, whatever was shaped before', async () => {
    const fresh = await sampleBlocks();
    const match = (block: NormalizedBlock) => ({ block, txIndexes: [TX.deploy, TX.call, TX.aborted] });
    const reference = everyOptionCombination().map((o) =>
      JSON.stringify(shape([match(fresh.epoch2)], [], o)),
    );
    // The same block again, now after shapes in other views, in reverse order, and in rollback.
    for (const options of everyOptionCombination()) shape([], [match(epoch2)], options);
    const again = everyOptionCombination()
      .reverse()
      .map((o) => JSON.stringify(shape([match(epoch2)], [], o)))
      .reverse();
    expect(again).to.deep.equal(reference);
  });

  it('orders the keys of every object the same way under every option combination', () => {
    for (const options of everyOptionCombination()) {
      const body = shape(
        [{ block: epoch2, txIndexes: all(epoch2) }],
        [{ block: nakamoto, txIndexes: [0] }],
        options,
      );
      expect(Object.keys(body)).to.deep.equal(['chainhook', 'event']);
      expect(Object.keys(body.chainhook)).to.deep.equal(['uuid', 'name']);
      expect(Object.keys(body.event)).to.deep.equal(['chain', 'network', 'apply', 'rollback']);
      for (const block of [...body.event.apply, ...body.event.rollback]) {
        expectKeyOrder(block, KEY_ORDER.block, 'block');
        if (block.metadata) expectKeyOrder(block.metadata, KEY_ORDER.blockMetadata, 'block metadata');
        for (const tx of block.transactions) {
          expectKeyOrder(tx, KEY_ORDER.transaction, 'transaction');
          expectKeyOrder(tx.metadata, KEY_ORDER.transactionMetadata, 'transaction metadata');
          for (const op of tx.operations) expectKeyOrder(op, KEY_ORDER.operation, op.type);
        }
      }
    }
  });

  it('shows every key of the documented order when every option is on', () => {
    const [block] = shape([{ block: nakamoto, txIndexes: [0] }]).event.apply;
    expect(Object.keys(block)).to.deep.equal(KEY_ORDER.block);
    expect(Object.keys(block.metadata!)).to.deep.equal(KEY_ORDER.blockMetadata);
    expect(Object.keys(block.transactions[0].metadata)).to.deep.equal(KEY_ORDER.transactionMetadata);
  });

  for (const bad of [[1, 0], [0, 0], [-1], [7], [0.5]]) {
    it(`rejects txIndexes [${bad.join(', ')}], which are not ascending indexes into the block`, () => {
      expect(() => shape([{ block: epoch2, txIndexes: bad }])).to.throw(RangeError, /txIndexes/);
    });
  }

  it("validates against the client's ChainhookEventSchema under all 128 option combinations, in apply and rollback", () => {
    for (const options of everyOptionCombination()) {
      for (const [apply, rollback] of [
        [all(epoch2), [TX.noArgs, TX.guarded]],
        [[TX.deploy, TX.aborted], all(nakamoto)],
      ]) {
        const body = shape(
          [
            { block: epoch2, txIndexes: apply },
            { block: nakamoto, txIndexes: all(nakamoto) },
          ],
          [
            { block: nakamoto, txIndexes: [1] },
            { block: epoch2, txIndexes: rollback },
          ],
          options,
        );
        expect(
          validateChainhookEvent(JSON.parse(JSON.stringify(body))),
          JSON.stringify(options),
        ).to.deep.equal([]);
      }
    }
  });
});
