import { expect } from 'chai';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { NodeRpcInterfaceSource } from '../../../adapters/node-rpc/index.js';
import type { ContractAbi } from '../../../core/chain/contract-abi.js';
import { startFakeNodeRpc, type FakeNodeRpc } from '../../support/fake-node-rpc.js';

const TOKEN = 'SP3K8BC0PPEVCV7NZ6QSRWPQ2JE9E5B6N3PA0KBR9.token-v1';
const ABI: ContractAbi = {
  functions: [
    {
      name: 'transfer',
      access: 'public',
      args: [
        { name: 'amount', type: 'uint128' },
        { name: 'sender', type: 'principal' },
        { name: 'recipient', type: 'principal' },
        { name: 'memo', type: { optional: { buffer: { length: 34 } } } },
      ],
      outputs: { type: { response: { ok: 'bool', error: 'uint128' } } },
    },
  ],
  variables: [],
  maps: [],
  fungible_tokens: [{ name: 'token' }],
  non_fungible_tokens: [],
  epoch: 'Epoch25',
  clarity_version: 'Clarity2',
};

/** A loopback port nobody listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('NodeRpcInterfaceSource', () => {
  let node: FakeNodeRpc;
  let source: NodeRpcInterfaceSource;
  beforeEach(async () => {
    node = await startFakeNodeRpc({ [TOKEN]: ABI });
    source = new NodeRpcInterfaceSource({ url: node.url, timeoutMs: 300 });
  });
  afterEach(async () => node.close());

  it("answers a contract's interface from GET /v2/contracts/interface/{address}/{name}", async () => {
    expect(await source.fetchInterface(TOKEN)).to.deep.equal({ kind: 'found', abi: ABI });
    expect(node.requests).to.deep.equal([TOKEN]);
  });

  it('ignores a trailing slash on the base URL', async () => {
    const prefixed = new NodeRpcInterfaceSource({ url: `${node.url}/`, timeoutMs: 300 });
    expect((await prefixed.fetchInterface(TOKEN)).kind).to.equal('found');
  });

  it('says not_found when the node answers 404', async () => {
    expect(await source.fetchInterface('SP3K8BC0PPEVCV7NZ6QSRWPQ2JE9E5B6N3PA0KBR9.nope')).to.deep.equal({
      kind: 'not_found',
    });
  });

  it('refuses a 500', async () => {
    node.mode = 'error';
    expect(await source.fetchInterface(TOKEN)).to.deep.equal({ kind: 'refused', reason: 'HTTP 500' });
  });

  it('refuses a body that is not JSON, and JSON that is not a contract interface', async () => {
    node.mode = 'garbage';
    expect(await source.fetchInterface(TOKEN)).to.deep.equal({
      kind: 'refused',
      reason: 'the body is not JSON',
    });
    node.mode = 'answer';
    node.interfaces.set(TOKEN, { functions: [{ name: 'f', args: [{ name: 'a', type: { map: 1 } }] }] });
    expect(await source.fetchInterface(TOKEN)).to.deep.equal({
      kind: 'refused',
      reason: 'the body is not a contract interface',
    });
  });

  it('refuses a body larger than any interface without reading it all', async () => {
    node.interfaces.set(TOKEN, { ...ABI, padding: 'x'.repeat(5 * 1024 * 1024) });
    expect(await source.fetchInterface(TOKEN)).to.deep.equal({
      kind: 'refused',
      reason: `a body over ${4 * 1024 * 1024} bytes`,
    });
  });

  it('counts a node too busy to answer (503) as unreachable', async () => {
    node.mode = 'busy';
    expect(await source.fetchInterface(TOKEN)).to.deep.equal({ kind: 'unreachable', reason: 'HTTP 503' });
  });

  it('gives up on a node that never answers after its timeout, as unreachable', async () => {
    node.mode = 'silent';
    expect(await source.fetchInterface(TOKEN)).to.deep.equal({ kind: 'unreachable', reason: 'timed out' });
  });

  it('counts a port nobody listens on as unreachable', async () => {
    const nobody = new NodeRpcInterfaceSource({ url: `http://127.0.0.1:${await closedPort()}` });
    expect((await nobody.fetchInterface(TOKEN)).kind).to.equal('unreachable');
  });

  it('defaults to a 2 s timeout and 128 requests at once', () => {
    const plain = new NodeRpcInterfaceSource({ url: node.url });
    expect([plain.timeoutMs, plain.concurrency]).to.deep.equal([2000, 128]);
  });
});
