import { expect } from 'chai';
import type { NodeBlock } from '../../core/stacks-codec/node-block.js';
import { TEST_API_KEY, type TestServer } from './api-server.js';
import { ChainBuilder, TEST_KEYS, addressOf, stxTransfer } from './block-builder.js';
import { sampleDefinition } from './definitions.js';
import { send } from './raw-http.js';

/** `count` chained blocks, each with one STX transfer to bob. */
export async function transferBlocks(count: number, chain = new ChainBuilder()): Promise<NodeBlock[]> {
  const tx = await stxTransfer({ recipient: addressOf(TEST_KEYS.bob), amount: 1n });
  return Array.from({ length: count }, () => chain.next({ transactions: [tx] }));
}

/** Post a block to the server's observer as a node would; it must answer 200. */
export async function postBlock(t: TestServer, block: NodeBlock): Promise<void> {
  const res = await fetch(`${t.observerUrl}/new_block`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(block),
  });
  expect(res.status).to.equal(200);
}

/** Register an enabled `stx_transfer` hook for `url` through the API; returns its uuid. */
export async function registerTransferHook(t: TestServer, url: string): Promise<string> {
  const res = await send(t.baseUrl, 'POST', '/chainhooks/me', {
    key: TEST_API_KEY,
    body: JSON.stringify(
      sampleDefinition({
        filters: { events: [{ type: 'stx_transfer' }] },
        action: { type: 'http_post', url },
        options: { enable_on_registration: true },
      }),
    ),
  });
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  return res.body.uuid;
}

/** Poll `check` every 25 ms until it holds; throws after `timeoutMs`. */
export async function until(check: () => boolean | Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** The hook's delivery log as the API answers it (`query` like `?state=failed`). */
export async function deliveries(t: TestServer, uuid: string, query = '') {
  return (await send(t.baseUrl, 'GET', `/chainhooks/me/${uuid}/deliveries${query}`, { key: TEST_API_KEY }))
    .body;
}
