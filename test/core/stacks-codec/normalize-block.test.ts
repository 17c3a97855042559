import { expect } from 'chai';
import { Cl, deserializeTransaction, serializeCV } from '@stacks/transactions';
import type { ContractAbi } from '../../../core/chain/contract-abi.js';
import type { NodeBlock } from '../../../core/stacks-codec/node-block.js';
import { normalizeBlock, type NormalizeContext } from '../../../core/stacks-codec/normalize-block.js';
import {
  ChainBuilder,
  TEST_KEYS,
  aborted,
  addressOf,
  contractCall,
  contractDeploy,
  events,
  stxTransfer,
  withEvents,
  type NodeBlock as BuiltBlock,
} from '../../support/block-builder.js';

const ALICE = addressOf(TEST_KEYS.alice);
const BOB = addressOf(TEST_KEYS.bob);
const none: NormalizeContext = { network: 'mainnet', lookupAbi: () => undefined };

/** The builder types events loosely (any `type`); its blocks are node blocks all the same. */
const asNode = (block: BuiltBlock, extra: Partial<NodeBlock> = {}): NodeBlock => ({
  ...(block as unknown as NodeBlock),
  ...extra,
});

const counterAbi: ContractAbi = {
  functions: [
    { name: 'add', access: 'public', args: [{ name: 'amount', type: 'uint128' }], outputs: { type: 'bool' } },
  ],
};

describe('normalizeBlock', () => {
  describe('the block', () => {
    it('identifies the block by height and index block hash, and its parent one height below', async () => {
      const chain = new ChainBuilder({ startHeight: 10 });
      chain.next();
      const block = chain.next();
      const { block: normalized } = normalizeBlock(asNode(block), none);
      expect(normalized.block_identifier).to.deep.equal({ index: 11, hash: block.index_block_hash });
      expect(normalized.parent_block_identifier).to.deep.equal({
        index: 10,
        hash: block.parent_index_block_hash,
      });
    });

    it("takes the timestamp from the burn block before Nakamoto and from the block's own time after", () => {
      const block = new ChainBuilder().next();
      expect(normalizeBlock(asNode(block), none).block.timestamp).to.equal(block.burn_block_time);
      expect(normalizeBlock(asNode(block, { block_time: 1_729_679_253 }), none).block.timestamp).to.equal(
        1_729_679_253,
      );
    });

    it('keeps the metadata of a pre-Nakamoto block, with the block height as tenure height and no signatures', async () => {
      const transfer = await stxTransfer({ recipient: BOB, amount: 5n });
      const block = new ChainBuilder().next({ transactions: [transfer] });
      const { metadata } = normalizeBlock(asNode(block), none).block;
      expect(metadata).to.deep.equal({
        burn_block_identifier: { index: block.burn_block_height, hash: block.burn_block_hash },
        burn_block_timestamp: block.burn_block_time,
        parent_microblock_identifier: null,
        tenure_height: block.block_height,
        execution_cost: block.anchored_cost,
        tx_total_size: (transfer.transaction.raw_tx.length - 2) / 2,
        tx_count: 1,
        signatures: { signer_bitvec: null, signer_signatures: null },
      });
    });

    it('keeps the tenure height and signer signatures of a Nakamoto block', () => {
      const block = asNode(new ChainBuilder().next(), {
        tenure_height: 38,
        signer_bitvec: '000800000001ff',
        signer_signature: ['004c2c', '000f1f'],
      });
      const { metadata } = normalizeBlock(block, none).block;
      expect(metadata.tenure_height).to.equal(38);
      expect(metadata.signatures).to.deep.equal({
        signer_bitvec: '000800000001ff',
        signer_signatures: ['004c2c', '000f1f'],
      });
    });

    it('names the parent microblock when the block confirms one', () => {
      const hash = `0x${'5c'.repeat(32)}`;
      const block = asNode(new ChainBuilder().next(), {
        parent_microblock: hash,
        parent_microblock_sequence: 3,
      });
      expect(normalizeBlock(block, none).block.metadata.parent_microblock_identifier).to.deep.equal({
        index: 3,
        hash,
      });
    });

    it('sums the anchored transactions when an old node sends no block cost', async () => {
      const transfer = await stxTransfer({ recipient: BOB, amount: 5n });
      const cost = { read_count: 1, read_length: 2, runtime: 3, write_count: 4, write_length: 5 };
      const built = new ChainBuilder().next({
        transactions: [transfer, await stxTransfer({ recipient: BOB, amount: 1n, nonce: 1 })],
      });
      const block = asNode(built, {
        anchored_cost: undefined,
        transactions: built.transactions.map((tx) => ({ ...tx, execution_cost: cost })),
      });
      expect(normalizeBlock(block, none).block.metadata.execution_cost).to.deep.equal({
        read_count: 2,
        read_length: 4,
        runtime: 6,
        write_count: 8,
        write_length: 10,
      });
    });
  });

  describe('transactions', () => {
    it("keeps the node's txids, order, positions, raw bytes and decoded results", async () => {
      const first = await stxTransfer({ recipient: BOB, amount: 5n });
      const second = await stxTransfer({ recipient: BOB, amount: 6n, nonce: 1 });
      const block = new ChainBuilder().next({ transactions: [first, second] });
      const txs = normalizeBlock(asNode(block), none).block.transactions;
      expect(txs.map((t) => t.transaction_identifier.hash)).to.deep.equal([
        first.transaction.txid,
        second.transaction.txid,
      ]);
      expect(txs[1].metadata).to.deep.include({
        type: 'token_transfer',
        status: 'success',
        sender_address: ALICE,
        fee_rate: '180',
        nonce: 1,
        position: { index: 1, microblock_identifier: null },
        raw_tx: second.transaction.raw_tx,
        result: { hex: '0x0703', repr: '(ok true)', type: '(response bool UnknownType)' },
      });
    });

    it('places a microblock-confirmed transaction in its microblock', async () => {
      const built = new ChainBuilder().next({
        transactions: [await stxTransfer({ recipient: BOB, amount: 5n })],
      });
      const microblock = `0x${'42'.repeat(32)}`;
      const block = asNode(built, {
        transactions: [{ ...built.transactions[0], microblock_hash: microblock, microblock_sequence: 2 }],
      });
      expect(normalizeBlock(block, none).block.transactions[0].metadata.position).to.deep.equal({
        index: 0,
        microblock_identifier: { index: 2, hash: microblock },
      });
    });

    it('keeps uncommitted events marked, and makes no operation of them', async () => {
      const call = withEvents(
        await contractCall({ contractId: `${BOB}.market`, functionName: 'buy' }),
        events.stxTransfer({ sender: ALICE, recipient: BOB, amount: 9n }),
      );
      const block = new ChainBuilder().next({ transactions: [aborted(call, 'abort_by_response')] });
      const [tx] = normalizeBlock(asNode(block), none).block.transactions;
      expect(tx.events.map((e) => [e.type, e.committed])).to.deep.equal([['stx_transfer', false]]);
      expect(tx.operations.map((op) => op.type)).to.deep.equal(['fee', 'contract_call']);
      expect(tx.metadata).to.include({ status: 'abort_by_response' });
    });

    it('includes a Bitcoin-originated operation (raw_tx 0x00) with fee "0" and nonce 0', () => {
      const built = new ChainBuilder().next();
      const txid = `0x${'0b'.repeat(32)}`;
      const block = asNode(built, {
        transactions: [
          { txid, tx_index: 0, raw_tx: '0x00', status: 'success', raw_result: '0x0703', burnchain_op: null },
        ],
        events: [
          {
            txid,
            event_index: 0,
            committed: true,
            type: 'stx_transfer_event',
            stx_transfer_event: { sender: ALICE, recipient: BOB, amount: '50' },
          },
        ],
      });
      const [tx] = normalizeBlock(block, none).block.transactions;
      expect(tx.metadata).to.deep.include({
        type: 'token_transfer',
        sender_address: ALICE,
        fee_rate: '0',
        nonce: 0,
        raw_tx: '0x00',
      });
      expect(tx.operations.map((op) => op.type)).to.deep.equal(['token_transfer', 'token_transfer']);
    });

    it('keeps a transaction it cannot read with the reason and its events, and reads the others', async () => {
      const good = await stxTransfer({ recipient: BOB, amount: 7n });
      const bad = await stxTransfer({ recipient: BOB, amount: 8n, nonce: 1 });
      const later = await stxTransfer({ recipient: BOB, amount: 9n, nonce: 2 });
      const built = new ChainBuilder().next({ transactions: [good, bad, later] });
      built.transactions[1] = { ...built.transactions[1], raw_tx: '0xdeadbeef' };
      const { block } = normalizeBlock(asNode(built), none);
      expect(block.transactions.map((tx) => tx.transaction_identifier.hash)).to.deep.equal([
        good.transaction.txid,
        later.transaction.txid,
      ]);
      expect(block.unreadable_transactions).to.have.length(1);
      const [unreadable] = block.unreadable_transactions!;
      expect(unreadable).to.deep.include({ txid: bad.transaction.txid, tx_index: 1, raw_tx: '0xdeadbeef' });
      expect(unreadable.reason).to.be.a('string').and.not.equal('');
      expect(unreadable.events).to.deep.equal(built.events.filter((e) => e.txid === bad.transaction.txid));
      expect(block.metadata.tx_count).to.equal(3);
    });

    it('keeps a block whose transaction list is null, with every event of the block as given', async () => {
      const built = new ChainBuilder().next({
        transactions: [await stxTransfer({ recipient: BOB, amount: 1n })],
      });
      const { block } = normalizeBlock(asNode(built, { transactions: null as never }), none);
      expect(block.transactions).to.deep.equal([]);
      expect(block.unreadable_transactions).to.deep.equal([
        {
          txid: null,
          tx_index: null,
          raw_tx: null,
          reason: 'transactions must be a list, not null',
          events: built.events,
        },
      ]);
      expect(block.block_identifier).to.deep.equal({
        index: built.block_height,
        hash: built.index_block_hash,
      });
    });

    it('leaves out unreadable_transactions when every transaction was read', async () => {
      const built = new ChainBuilder().next({
        transactions: [await stxTransfer({ recipient: BOB, amount: 1n })],
      });
      expect(normalizeBlock(asNode(built), none).block).to.not.have.property('unreadable_transactions');
    });
  });

  describe('address memo', () => {
    it('adds the addresses of a block to the memo the context gives, and reads the same with it as without', async () => {
      const block = asNode(
        new ChainBuilder().next({ transactions: [await stxTransfer({ recipient: BOB, amount: 1n })] }),
      );
      const addresses = new Map<string, string>();
      const withMemo = normalizeBlock(block, { ...none, addresses }).block;
      expect([...addresses.values()]).to.include(ALICE);
      expect(normalizeBlock(block, { ...none, addresses }).block).to.deep.equal(withMemo);
      expect(normalizeBlock(block, none).block).to.deep.equal(withMemo);
    });
  });

  describe('contracts and ABIs', () => {
    it('lists the contracts the block deploys, with ABI and source', async () => {
      const deploy = await contractDeploy({
        contractName: 'counter',
        codeBody: '(define-public (add (amount uint)) (ok true))',
        abi: counterAbi,
      });
      const block = new ChainBuilder().next({ transactions: [deploy] });
      const { block: normalized, contracts } = normalizeBlock(asNode(block), none);
      // The builder deploys with the library's default Clarity version.
      const wire = deserializeTransaction(deploy.transaction.raw_tx.slice(2)).payload;
      expect(contracts).to.deep.equal([
        {
          contract_identifier: `${ALICE}.counter`,
          abi: counterAbi,
          source_code: '(define-public (add (amount uint)) (ok true))',
          clarity_version: 'clarityVersion' in wire ? wire.clarityVersion : null,
        },
      ]);
      const deployOp = normalized.transactions[0].operations.find((op) => op.type === 'contract_deploy');
      expect(deployOp && deployOp.metadata).to.include({ abi: JSON.stringify(counterAbi) });
    });

    it('names the arguments of a call to a contract deployed earlier in the same block', async () => {
      const deploy = await contractDeploy({ contractName: 'counter', codeBody: '(begin)', abi: counterAbi });
      const call = await contractCall({
        contractId: `${ALICE}.counter`,
        functionName: 'add',
        functionArgs: [Cl.uint(3)],
        nonce: 1,
      });
      const block = new ChainBuilder().next({ transactions: [deploy, call] });
      const payload = normalizeBlock(asNode(block), none).block.transactions[1].payload;
      expect(payload.type === 'contract_call' && payload.args).to.deep.equal([
        { hex: `0x${serializeCV(Cl.uint(3))}`, repr: 'u3', name: 'amount', type: 'uint' },
      ]);
    });

    it('names the arguments of a call from the ABI lookup of earlier blocks', async () => {
      const call = await contractCall({
        contractId: `${BOB}.counter`,
        functionName: 'add',
        functionArgs: [Cl.uint(3)],
      });
      const block = new ChainBuilder().next({ transactions: [call] });
      const context: NormalizeContext = {
        network: 'mainnet',
        lookupAbi: (id) => (id === `${BOB}.counter` ? counterAbi : undefined),
      };
      const payload = normalizeBlock(asNode(block), context).block.transactions[0].payload;
      expect(payload.type === 'contract_call' && payload.args[0].name).to.equal('amount');
    });

    it('neither lists nor uses the ABI of a deploy that failed', async () => {
      const deploy = aborted(
        await contractDeploy({ contractName: 'counter', codeBody: '(begin)', abi: counterAbi }),
        'abort_by_response',
      );
      const call = await contractCall({
        contractId: `${ALICE}.counter`,
        functionName: 'add',
        functionArgs: [Cl.uint(3)],
        nonce: 1,
      });
      const block = new ChainBuilder().next({ transactions: [deploy, call] });
      const { block: normalized, contracts } = normalizeBlock(asNode(block), none);
      expect(contracts).to.deep.equal([]);
      const payload = normalized.transactions[1].payload;
      expect(payload.type === 'contract_call' && payload.args[0]).to.include({ name: '', type: 'uint' });
    });
  });
});
