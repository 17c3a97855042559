import { expect } from 'chai';
import { Cl } from '@stacks/transactions';
import type { ContractAbi } from '../../../core/chain/contract-abi.js';
import { startTestServer, untilIngested, type TestServer } from '../../support/api-server.js';
import { ChainBuilder, contractCall } from '../../support/block-builder.js';
import { startFakeNodeRpc, type FakeNodeRpc } from '../../support/fake-node-rpc.js';
import { NodePoster, eventually } from '../../support/outage-drill.js';

const MARKET = 'SPJW1XE278YMCEYMXB8ZFGJMH8ZVAAEDP2S2PJYG.stacks-punks-market';
const MARKET_ABI: ContractAbi = {
  functions: [
    {
      name: 'list-item',
      access: 'public',
      args: [{ name: 'item-id', type: 'uint128' }],
      outputs: { type: { response: { ok: 'bool', error: 'uint128' } } },
    },
  ],
  variables: [],
  maps: [],
  fungible_tokens: [],
  non_fungible_tokens: [],
};

/** Post a body to the observer as the node does, expecting its 200. */
async function postToObserver(app: TestServer, path: string, body: unknown): Promise<void> {
  const res = await fetch(`${app.observerUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  await res.arrayBuffer();
  expect(res.status, path).to.equal(200);
}

describe('contract ABIs learned from the mempool', function () {
  this.timeout(60_000);
  let node: FakeNodeRpc;
  let app: TestServer | undefined;
  beforeEach(async () => {
    node = await startFakeNodeRpc({ [MARKET]: MARKET_ABI });
  });
  afterEach(async () => {
    await app?.stop();
    app = undefined;
    await node.close();
  });

  it('asks the node about a contract when a mempool transaction calls it, so the block that mines it is named without asking', async () => {
    app = await startTestServer({ STACKHOOKS_NODE_RPC_URL: node.url, STACKHOOKS_NETWORK: 'mainnet' });
    const call = await contractCall({
      contractId: MARKET,
      functionName: 'list-item',
      functionArgs: [Cl.uint(7)],
    });
    await postToObserver(app, '/new_mempool_tx', [call.transaction.raw_tx]);
    await eventually(() => node.requests.length === 1, 'the node to be asked about the called contract');
    expect(node.requests).to.deep.equal([MARKET]);
    await app.server.stackhooks.contractAbis.idle();

    await new NodePoster(() => app!.server.observerPort).post([
      new ChainBuilder().next({ transactions: [call] }),
    ]);
    await untilIngested(app);
    const counters = app.server.stackhooks.contractAbis.counters;
    expect(node.requests, 'requests after the block').to.deep.equal([MARKET]);
    expect(counters).to.include({ node_requests: 1, node_found: 1, unnamed_calls: 0 });
  });
});
