import { expect } from 'chai';
import { Cl } from '@stacks/transactions';
import { mempoolCalledContracts } from '../../../core/contracts/mempool-calls.js';
import { TEST_KEYS, addressOf, contractCall, stxTransfer } from '../../support/block-builder.js';

const MARKET = 'SPJW1XE278YMCEYMXB8ZFGJMH8ZVAAEDP2S2PJYG.stacks-punks-market';
const POOL = 'SP3K8BC0PPEVCV7NZ6QSRWPQ2JE9E5B6N3PA0KBR9.amm-swap-pool';

const callTo = async (contractId: string, nonce: number) =>
  (await contractCall({ contractId, functionName: 'list-item', functionArgs: [Cl.uint(1)], nonce }))
    .transaction.raw_tx;

describe('mempoolCalledContracts', () => {
  it('names each contract the posted transactions call, once', async () => {
    const body = JSON.stringify([await callTo(MARKET, 0), await callTo(POOL, 1), await callTo(MARKET, 2)]);
    expect([...mempoolCalledContracts(body, 'mainnet')]).to.deep.equal([MARKET, POOL]);
  });

  it('skips transactions that call no contract', async () => {
    const transfer = (await stxTransfer({ recipient: addressOf(TEST_KEYS.bob), amount: 5, nonce: 0 }))
      .transaction.raw_tx;
    const body = JSON.stringify([transfer, await callTo(POOL, 1)]);
    expect([...mempoolCalledContracts(body, 'mainnet')]).to.deep.equal([POOL]);
  });

  it('skips entries that are not transactions and keeps reading', async () => {
    const body = JSON.stringify([42, '0xdeadbeef', 'not hex', await callTo(MARKET, 0)]);
    expect([...mempoolCalledContracts(body, 'mainnet')]).to.deep.equal([MARKET]);
  });

  it('gives nothing for a body that is not an array of transactions', () => {
    for (const body of ['{', '{"txs": []}', 'null', '"0x00"'])
      expect(mempoolCalledContracts(body, 'mainnet').size, body).to.equal(0);
  });
});
