import { Cl, deserializeTransaction, serializeCV } from '@stacks/transactions';
import { expect } from 'chai';
import type { NormalizedBlock } from '../../../core/chain/block.js';
import type { HookOptions } from '../../../core/hooks/definition.js';
import { shapePayload, type PayloadBlock, type PayloadOperation } from '../../../core/payload/index.js';
import { TEST_KEYS, addressOf } from '../../support/block-builder.js';
import {
  COUNTER,
  COUNTER_ABI,
  COUNTER_SOURCE,
  MICROBLOCK,
  PAYLOAD_OPTIONS,
  PRINTED,
  TX,
  sampleBlocks,
} from './sample-blocks.js';

const BOB = addressOf(TEST_KEYS.bob);
const hex = (value: Parameters<typeof serializeCV>[0]) => `0x${serializeCV(value)}`;

/** The payload block of `block` with the transactions at `txIndexes`, inside apply. */
function shaped(block: NormalizedBlock, txIndexes: number[], options: HookOptions = {}): PayloadBlock {
  const body = shapePayload({
    hook: { uuid: 'u', name: 'n', options },
    network: 'mainnet',
    apply: [{ block, txIndexes }],
    rollback: [],
  });
  return body.event.apply[0];
}

/** The operation of `type` in the only transaction of a payload block. */
function operation<T extends PayloadOperation['type']>(block: PayloadBlock, type: T) {
  const op = block.transactions[0].operations.find((o) => o.type === type);
  expect(op, type).to.not.equal(undefined);
  return op as Extract<PayloadOperation, { type: T }>;
}

/** The `path = value` leaves of a JSON value, for comparing what two payloads show. */
function leaves(value: unknown, path = '', out = new Map<string, string>()): Map<string, string> {
  if (value && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) leaves(child, `${path}/${key}`, out);
  } else {
    out.set(path, JSON.stringify(value));
  }
  return out;
}

describe('shapePayload options', () => {
  let epoch2: NormalizedBlock;
  let nakamoto: NormalizedBlock;
  before(async () => {
    ({ epoch2, nakamoto } = await sampleBlocks());
  });

  describe('decode_clarity_values', () => {
    it('shows the result as its 0x serialization when off', () => {
      expect(shaped(epoch2, [TX.call]).transactions[0].metadata.result).to.equal(hex(Cl.ok(Cl.bool(true))));
    });

    it('shows the result as {hex, repr} when on', () => {
      const { result } = shaped(nakamoto, [0], { decode_clarity_values: true }).transactions[0].metadata;
      expect(result).to.deep.equal({ hex: hex(Cl.ok(Cl.bool(true))), repr: '(ok true)' });
    });

    it('shows a print value as its 0x serialization when off', () => {
      expect(operation(shaped(epoch2, [TX.call]), 'contract_log').metadata.value).to.equal(hex(PRINTED));
    });

    it('shows a print value as {hex, repr} when on', () => {
      const log = operation(shaped(epoch2, [TX.call], { decode_clarity_values: true }), 'contract_log');
      expect(log.metadata).to.deep.equal({
        contract_identifier: COUNTER,
        topic: 'print',
        value: { hex: hex(PRINTED), repr: '(tuple (action "add") (n u5))' },
      });
    });

    it("joins a call's argument serializations, in order, into one 0x string when off", () => {
      const call = operation(shaped(epoch2, [TX.call]), 'contract_call');
      expect(call.metadata.args).to.equal(`${hex(Cl.uint(5))}${serializeCV(Cl.principal(BOB))}`);
    });

    it('shows null args for a call without arguments when off', () => {
      expect(operation(shaped(epoch2, [TX.noArgs]), 'contract_call').metadata.args).to.equal(null);
    });

    it("lists a call's arguments as {hex, repr, name, type}, named from the ABI, when on", () => {
      const call = operation(shaped(epoch2, [TX.call], { decode_clarity_values: true }), 'contract_call');
      expect(call.metadata.args).to.deep.equal([
        { hex: hex(Cl.uint(5)), repr: 'u5', name: 'n', type: 'uint' },
        { hex: hex(Cl.principal(BOB)), repr: `'${BOB}`, name: 'who', type: 'principal' },
      ]);
    });

    it('shows an empty argument list for a call without arguments when on', () => {
      const call = operation(shaped(epoch2, [TX.noArgs], { decode_clarity_values: true }), 'contract_call');
      expect(call.metadata.args).to.deep.equal([]);
    });
  });

  describe('include_contract_abi', () => {
    it('leaves the ABI out of a deploy when off', () => {
      expect(operation(shaped(epoch2, [TX.deploy]), 'contract_deploy').metadata).to.not.have.property('abi');
    });

    it("shows a deploy's ABI as JSON text when on", () => {
      const deploy = operation(
        shaped(epoch2, [TX.deploy], { include_contract_abi: true }),
        'contract_deploy',
      );
      expect(JSON.parse(deploy.metadata.abi!)).to.deep.equal(COUNTER_ABI);
    });
    it('leaves the ABI out of a deploy the node reported none for, even when on', () => {
      const options = { include_contract_abi: true };
      const deploy = operation(shaped(epoch2, [TX.failedDeploy], options), 'contract_deploy');
      expect(deploy.metadata).to.not.have.property('abi');
    });
  });

  describe('include_contract_source_code', () => {
    it('leaves the source code out of a deploy when off', () => {
      const deploy = operation(shaped(epoch2, [TX.deploy]), 'contract_deploy');
      expect(deploy.metadata).to.deep.equal({ contract_identifier: COUNTER, clarity_version: 4 });
    });

    it("shows a deploy's source code when on", () => {
      const options = { include_contract_source_code: true };
      const deploy = operation(shaped(epoch2, [TX.deploy], options), 'contract_deploy');
      expect(deploy.metadata.source_code).to.equal(COUNTER_SOURCE);
    });
  });

  describe('include_post_conditions', () => {
    it('leaves post-conditions out when off', () => {
      expect(shaped(epoch2, [TX.guarded]).transactions[0].metadata).to.not.have.property('post_conditions');
    });

    it('shows the mode and the decoded post-conditions when on', () => {
      const options = { include_post_conditions: true };
      const { post_conditions } = shaped(epoch2, [TX.guarded], options).transactions[0].metadata;
      const asset = { contract_address: addressOf(TEST_KEYS.alice), contract_name: 'counter' };
      expect(post_conditions).to.deep.equal({
        mode: 'deny',
        post_conditions: [
          {
            type: 'stx',
            condition_code: 'sent_equal_to',
            amount: '10',
            principal: { type_id: 'principal_standard', address: BOB },
          },
          {
            type: 'fungible',
            condition_code: 'sent_less_than_or_equal_to',
            amount: '100',
            principal: {
              type_id: 'principal_contract',
              contract_name: 'counter',
              address: asset.contract_address,
            },
            asset: { ...asset, asset_name: 'points' },
          },
          {
            type: 'non_fungible',
            condition_code: 'not_sent',
            principal: { type_id: 'principal_standard', address: BOB },
            asset: { ...asset, asset_name: 'badge' },
            asset_value: { hex: hex(Cl.uint(1)), repr: 'u1' },
          },
        ],
      });
    });
  });

  describe('include_raw_transactions', () => {
    it('leaves the raw transaction out when off', () => {
      expect(shaped(epoch2, [TX.transfer]).transactions[0].metadata).to.not.have.property('raw_tx');
    });

    it('shows the raw transaction the txid is the hash of when on', () => {
      const [tx] = shaped(epoch2, [TX.transfer], { include_raw_transactions: true }).transactions;
      expect(`0x${deserializeTransaction(tx.metadata.raw_tx!.slice(2)).txid()}`).to.equal(
        tx.transaction_identifier.hash,
      );
    });
  });

  describe('include_block_metadata', () => {
    it('leaves the block metadata out when off', () => {
      expect(shaped(epoch2, [TX.call])).to.not.have.property('metadata');
    });

    it('shows the block metadata, counting every transaction of the block, without signatures when on', () => {
      const block = shaped(epoch2, [TX.call], { include_block_metadata: true });
      expect(block.metadata).to.deep.equal({
        canonical: true,
        burn_block_identifier: epoch2.metadata.burn_block_identifier,
        burn_block_timestamp: epoch2.metadata.burn_block_timestamp,
        parent_microblock_identifier: MICROBLOCK,
        tenure_height: epoch2.block_identifier.index,
        execution_cost: epoch2.metadata.execution_cost,
        tx_total_size: epoch2.metadata.tx_total_size,
        tx_count: 7,
      });
    });

    it('shows a null parent microblock and the tenure height of a Nakamoto block', () => {
      const { metadata } = shaped(nakamoto, [0], { include_block_metadata: true });
      expect([metadata?.parent_microblock_identifier, metadata?.tenure_height]).to.deep.equal([null, 7]);
    });
  });

  describe('include_block_signatures', () => {
    it('shows the block metadata with the signer fields, even without include_block_metadata', () => {
      for (const include_block_metadata of [false, true]) {
        const { metadata } = shaped(nakamoto, [0], {
          include_block_signatures: true,
          include_block_metadata,
        });
        expect(metadata?.tx_count).to.equal(2);
        expect(metadata?.signatures).to.deep.equal({
          signer_bitvec: '000800000001ff',
          signer_signatures: ['01'.repeat(65), '02'.repeat(65)],
        });
      }
    });

    it('shows null signer fields for a block before Nakamoto', () => {
      const { metadata } = shaped(epoch2, [0], { include_block_signatures: true });
      expect(metadata?.signatures).to.deep.equal({ signer_bitvec: null, signer_signatures: null });
    });
  });

  // What each option may change, as paths of the payload block (with every transaction matched).
  const REACH: Record<(typeof PAYLOAD_OPTIONS)[number], RegExp> = {
    decode_clarity_values:
      /^\/transactions\/\d+\/(metadata\/result|operations\/\d+\/metadata\/(value|args))(\/|$)/,
    include_contract_abi: /^\/transactions\/\d+\/operations\/\d+\/metadata\/abi$/,
    include_contract_source_code: /^\/transactions\/\d+\/operations\/\d+\/metadata\/source_code$/,
    include_post_conditions: /^\/transactions\/\d+\/metadata\/post_conditions\//,
    include_raw_transactions: /^\/transactions\/\d+\/metadata\/raw_tx$/,
    include_block_metadata: /^\/metadata\/(?!signatures\/)/,
    include_block_signatures: /^\/metadata\//,
  };

  for (const option of PAYLOAD_OPTIONS) {
    it(`lets ${option} change only the fields it names, and some of them`, () => {
      for (const block of [epoch2, nakamoto]) {
        const indexes = block.transactions.map((_, i) => i);
        const off = leaves(shaped(block, indexes));
        const on = leaves(shaped(block, indexes, { [option]: true }));
        const changed = [...new Set([...off.keys(), ...on.keys()])].filter((p) => off.get(p) !== on.get(p));
        expect(
          changed.filter((path) => !REACH[option].test(path)),
          block.block_identifier.hash,
        ).to.deep.equal([]);
        if (block === epoch2 || option === 'include_block_signatures') expect(changed).to.not.deep.equal([]);
      }
    });
  }
});
