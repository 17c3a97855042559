import {
  AddressVersion,
  Cl,
  addressFromVersionHash,
  addressToString,
  deserializeTransaction,
  hexToCV,
} from '@stacks/transactions';
import type { SingleSigSpendingConditionOpts } from '@stacks/transactions';
import { expect } from 'chai';
import {
  ChainBuilder,
  TEST_KEYS,
  aborted,
  addressOf,
  contractCall,
  contractDeploy,
  events,
  headerOf,
  stxTransfer,
  uncommitted,
  withEvents,
  withResult,
} from './block-builder.js';
import type { BuiltTransaction } from './block-builder.js';

const TOKEN = `${addressOf(TEST_KEYS.alice)}.token`;

/** Decode `raw_tx` the way the normalizer will, and read back who signed it and for what. */
function decoded(tx: BuiltTransaction, network: 'mainnet' | 'testnet') {
  const wire = deserializeTransaction(tx.transaction.raw_tx.slice(2));
  const condition = wire.auth.spendingCondition as SingleSigSpendingConditionOpts;
  const version = network === 'mainnet' ? AddressVersion.MainnetSingleSig : AddressVersion.TestnetSingleSig;
  return {
    sender: addressToString(addressFromVersionHash(version, condition.signer)),
    nonce: BigInt(condition.nonce as bigint),
    fee: BigInt(condition.fee as bigint),
    txid: `0x${wire.txid()}`,
  };
}

describe('block builder', () => {
  for (const network of ['mainnet', 'testnet'] as const) {
    it(`signs ${network} transfers, deploys and calls that decode to the same sender, nonce, fee and txid`, async () => {
      const txs = [
        await stxTransfer({
          network,
          recipient: addressOf(TEST_KEYS.bob, network),
          amount: 5n,
          nonce: 3,
          fee: 200,
        }),
        await contractDeploy({
          network,
          senderKey: TEST_KEYS.bob,
          contractName: 'token',
          codeBody: '(define-fungible-token t)',
          nonce: 1,
        }),
        await contractCall({
          network,
          contractId: TOKEN,
          functionName: 'transfer',
          functionArgs: [Cl.uint(1)],
          nonce: 4,
          fee: 1,
        }),
      ];
      for (const tx of txs) {
        expect(decoded(tx, network)).to.deep.equal({
          sender: tx.sender,
          nonce: tx.nonce,
          fee: tx.fee,
          txid: tx.transaction.txid,
        });
      }
      expect(txs[1].sender).to.equal(addressOf(TEST_KEYS.bob, network));
    });
  }

  it('builds the same blocks, signatures included, from the same inputs', async () => {
    const build = async () => {
      const chain = new ChainBuilder({ label: 'twice' });
      chain.next();
      return chain.next({
        transactions: [await stxTransfer({ recipient: addressOf(TEST_KEYS.carol), amount: 9 })],
      });
    };
    expect(await build()).to.deep.equal(await build());
  });

  it('reports a transfer with its stx_transfer_event, numbered and tied to its txid', async () => {
    const transfer = await stxTransfer({ recipient: addressOf(TEST_KEYS.bob), amount: 42n, memo: 'hi' });
    const block = new ChainBuilder().next({ transactions: [transfer] });
    expect(block.transactions[0]).to.include({
      txid: transfer.transaction.txid,
      tx_index: 0,
      status: 'success',
    });
    expect(block.events).to.deep.equal([
      {
        txid: transfer.transaction.txid,
        event_index: 0,
        committed: true,
        type: 'stx_transfer_event',
        stx_transfer_event: {
          sender: addressOf(TEST_KEYS.alice),
          recipient: addressOf(TEST_KEYS.bob),
          amount: '42',
          memo: '6869',
        },
      },
    ]);
  });

  it('numbers events across the block in transaction order', async () => {
    const mint = events.ftMint({ asset: `${TOKEN}::t`, recipient: addressOf(TEST_KEYS.bob), amount: 10 });
    const first = withEvents(await contractCall({ contractId: TOKEN, functionName: 'mint' }), mint, mint);
    const second = await stxTransfer({ recipient: addressOf(TEST_KEYS.bob), amount: 1, nonce: 1 });
    const block = new ChainBuilder().next({ transactions: [first, second] });
    expect(block.events.map((e) => [e.event_index, e.txid, e.type])).to.deep.equal([
      [0, first.transaction.txid, 'ft_mint_event'],
      [1, first.transaction.txid, 'ft_mint_event'],
      [2, second.transaction.txid, 'stx_transfer_event'],
    ]);
    expect(block.transactions.map((tx) => tx.tx_index)).to.deep.equal([0, 1]);
  });

  it('encodes NFT ids and printed values as Clarity hex', async () => {
    const nft = events.nftTransfer({
      asset: `${TOKEN}::n`,
      value: Cl.uint(7),
      sender: TOKEN,
      recipient: addressOf(TEST_KEYS.bob),
    });
    const print = events.print({ contractId: TOKEN, value: Cl.tuple({ op: Cl.stringAscii('x') }) });
    const block = new ChainBuilder().next({
      transactions: [withEvents(await contractCall({ contractId: TOKEN, functionName: 'f' }), nft, print)],
    });
    const [nftEvent, printEvent] = block.events;
    if (nftEvent.type !== 'nft_transfer_event' || printEvent.type !== 'contract_event')
      throw new Error('wrong event types');
    expect(hexToCV(nftEvent.nft_transfer_event.raw_value)).to.deep.equal(Cl.uint(7));
    expect(hexToCV(printEvent.contract_event.raw_value)).to.deep.equal(Cl.tuple({ op: Cl.stringAscii('x') }));
    expect(printEvent.contract_event).to.include({ contract_identifier: TOKEN, topic: 'print' });
  });

  it('marks an aborted transaction and every one of its events as not committed', async () => {
    const call = withEvents(
      await contractCall({ contractId: TOKEN, functionName: 'f' }),
      events.stxBurn({ sender: TOKEN, amount: 1 }),
    );
    const block = new ChainBuilder().next({ transactions: [aborted(call, 'abort_by_response')] });
    expect(block.transactions[0].status).to.equal('abort_by_response');
    expect(hexToCV(block.transactions[0].raw_result)).to.deep.equal(Cl.error(Cl.uint(1)));
    expect(block.events.map((event) => event.committed)).to.deep.equal([false]);
  });

  it('sets a Clarity result and an uncommitted event one at a time', async () => {
    const call = withResult(await contractCall({ contractId: TOKEN, functionName: 'f' }), Cl.ok(Cl.uint(3)));
    const block = new ChainBuilder().next({
      transactions: [withEvents(call, uncommitted(events.stxMint({ recipient: TOKEN, amount: 1 })))],
    });
    expect(hexToCV(block.transactions[0].raw_result)).to.deep.equal(Cl.ok(Cl.uint(3)));
    expect(block.events[0].committed).to.equal(false);
  });

  it('builds forks whose heights and parent links are consistent with the branch they leave', () => {
    const chain = new ChainBuilder({ startHeight: 100 });
    const [a, b, c] = [chain.next(), chain.next(), chain.next()];
    const byHash = chain.forkFrom(a.index_block_hash).next();
    const byHeight = chain.forkFrom(b.block_height).next();
    expect(headerOf(byHash)).to.deep.include({ height: 101, parent_hash: a.index_block_hash });
    expect(byHash.parent_block_hash).to.equal(a.block_hash);
    expect(headerOf(byHeight)).to.deep.include({ height: 102, parent_hash: b.index_block_hash });
    expect(byHeight.burn_block_height).to.equal(b.burn_block_height + 1);
    expect(chain.next().parent_index_block_hash).to.equal(c.index_block_hash);
    const hashes = chain.blocks().map((block) => block.index_block_hash);
    expect(new Set(hashes).size).to.equal(hashes.length);
  });

  it('refuses to fork from a block it did not build', () => {
    expect(() => new ChainBuilder().forkFrom(`0x${'00'.repeat(32)}`)).to.throw(/no block/);
  });

  it('fills in the anchored-block fields the node sends, with microblock fields null', async () => {
    const block = new ChainBuilder().next({
      transactions: [await stxTransfer({ recipient: addressOf(TEST_KEYS.bob), amount: 1 })],
    });
    expect(block).to.include.keys(
      'burn_block_hash',
      'burn_block_time',
      'parent_burn_block_timestamp',
      'miner_txid',
      'parent_microblock',
    );
    expect(block.transactions[0]).to.include({
      microblock_hash: null,
      microblock_sequence: null,
      microblock_parent_hash: null,
      vm_error: null,
    });
    expect(block.transactions[0].execution_cost).to.have.keys(
      'runtime',
      'read_count',
      'read_length',
      'write_count',
      'write_length',
    );
  });
});
