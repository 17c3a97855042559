import { Cl } from '@stacks/transactions';
import { expect } from 'chai';
import type { NormalizedBlock } from '../../../core/chain/block.js';
import { shapeV1Payload } from '../../../core/chainhook-v1/shape-v1-payload.js';
import { ALICE, BOB, CAROL, NFT, TOKEN, TOKEN_CONTRACT } from '../matching/transactions.js';
import { SIP10_ABI } from './token-abis.js';
import { v1Predicate as predicate, v1SampleBlock } from './v1-sample-block.js';

describe('shapeV1Payload', () => {
  let block: NormalizedBlock;

  before(async () => {
    block = await v1SampleBlock();
  });

  function shaped(txIndexes: number[], abi = false, decode = false) {
    return shapeV1Payload({
      uuid: 'u',
      predicate: predicate(abi, decode),
      network: 'mainnet',
      apply: [{ block, txIndexes }],
      rollback: [],
    });
  }

  it('types committed events with 1.x names, numbered within the transaction', () => {
    const [tx] = shaped([0]).apply[0]!.transactions;
    expect(tx!.metadata.receipt.events.map((e) => [e.type, e.position.index])).to.deep.equal([
      ['FTTransferEvent', 0],
      ['NFTMintEvent', 1],
      ['STXLockEvent', 2],
      ['SmartContractEvent', 3],
    ]);
    expect(tx!.metadata.receipt.events[1]!.data).to.deep.equal({
      asset_identifier: NFT,
      raw_value: `0x${Cl.serialize(Cl.uint(7))}`,
      recipient: CAROL,
    });
  });

  it("adds 1.x's decoded values beside the hex with decode_clarity_values: a print's value, an NFT's token id and class", () => {
    const events = shaped([0], false, true).apply[0]!.transactions[0]!.metadata.receipt.events;
    expect(events[1]!.data).to.deep.equal({
      asset_identifier: NFT,
      asset_class_identifier: NFT,
      raw_value: `0x${Cl.serialize(Cl.uint(7))}`,
      value: 7,
      recipient: CAROL,
    });
    expect(events[3]!.data).to.deep.equal({
      contract_identifier: TOKEN_CONTRACT,
      topic: 'print',
      raw_value: `0x${Cl.serialize(Cl.stringAscii('hi'))}`,
      value: 'hi',
    });
    // Token amounts and STX events have no Clarity value to decode: they are the same either way.
    const plain = shaped([0]).apply[0]!.transactions[0]!.metadata.receipt.events;
    expect(events[0]).to.deep.equal(plain[0]);
    expect(events[2]).to.deep.equal(plain[2]);
    expect(plain[3]!.data).to.not.have.property('value');
  });

  it("derives 1.x's operations and receipt radii from the committed events", () => {
    const [tx] = shaped([0]).apply[0]!.transactions;
    expect(tx!.operations.map((op) => [op.type, op.account.address, op.amount.value])).to.deep.equal([
      ['DEBIT', ALICE, 5],
      ['CREDIT', BOB, 5],
      ['CREDIT', CAROL, 1],
      ['LOCK', ALICE, 10],
    ]);
    expect(tx!.metadata.receipt.mutated_assets_radius).to.deep.equal([TOKEN, NFT]);
    expect(tx!.metadata.receipt.mutated_contracts_radius).to.deep.equal([TOKEN_CONTRACT, NFT.split('::')[0]]);
  });

  it('names a contract call with its args as Clarity text and its result', () => {
    const [tx] = shaped([0]).apply[0]!.transactions;
    expect(tx!.metadata.kind).to.deep.equal({
      type: 'ContractCall',
      data: { args: ['u5'], contract_identifier: TOKEN_CONTRACT, method: 'move' },
    });
    expect(tx!.metadata.result).to.equal('(ok true)');
    expect(tx!.metadata.success).to.equal(true);
  });

  it('leaves out the events of an aborted transaction and marks it unsuccessful', () => {
    const [tx] = shaped([1]).apply[0]!.transactions;
    expect(tx!.metadata.receipt.events).to.deep.equal([]);
    expect(tx!.operations).to.deep.equal([]);
    expect(tx!.metadata.success).to.equal(false);
  });

  it('shows a deployment with its code, and its ABI only with include_contract_abi', () => {
    const [plain] = shaped([2]).apply[0]!.transactions;
    expect(plain!.metadata.kind).to.deep.equal({
      type: 'ContractDeployment',
      data: {
        contract_identifier: (block.transactions[2]!.payload as { contract_identifier: string })
          .contract_identifier,
        code: '(define-fungible-token coin)',
      },
    });
    expect(plain!.metadata).to.not.have.property('contract_abi');
    const [withAbi] = shaped([2], true).apply[0]!.transactions;
    expect(withAbi!.metadata.contract_abi).to.deep.equal(SIP10_ABI);
  });

  it('echoes the predicate scope and leaves events and sponsor out', () => {
    const payload = shaped([0]);
    expect(payload.chainhook).to.deep.equal({
      uuid: 'u',
      predicate: { scope: 'block_height', higher_than: 0 },
      is_streaming_blocks: true,
    });
    expect(payload.events).to.deep.equal([]);
    expect(payload.apply[0]!.transactions[0]!.metadata).to.not.have.property('sponsor');
  });
});
