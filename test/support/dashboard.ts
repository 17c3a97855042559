import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { runReplay } from '../../apps/cli/replay-command.js';
import { TEST_API_KEY, untilIngested, type TestServer } from './api-server.js';
import { ChainBuilder, TEST_KEYS, addressOf, stxTransfer } from './block-builder.js';
import { seriousAccessibilityViolations } from './browser.js';
import { fixturePath, fixturesDir } from './fixtures.js';

/** How long a dashboard test waits for a condition: long enough for a loaded machine; never a sleep. */
export const WAIT = { timeout: 20_000 };

/** A hook as the API returns it, as far as the dashboard tests read it. */
export type Hook = {
  uuid: string;
  definition: { name: string; action: { url: string } };
  status: { enabled: boolean; status: string };
};

/** The API's answer to a call with the test key; fails the test on any status but 2xx. */
export async function callApi<T>(t: TestServer, method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${t.baseUrl}/chainhooks/v1${path}`, {
    method,
    headers: {
      'x-api-key': TEST_API_KEY,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(res.status, `${method} ${path}`).to.be.below(300);
  return (res.status === 204 ? undefined : await res.json()) as T;
}

/** Register a hook matching coinbase and STX transfers, posting to `url` (registered disabled). */
export function registerHook(t: TestServer, name: string, url: string): Promise<Hook> {
  return callApi<Hook>(t, 'POST', '/me', {
    name,
    version: '1',
    chain: 'stacks',
    network: 'mainnet',
    filters: { events: [{ type: 'coinbase' }, { type: 'stx_transfer' }] },
    action: { type: 'http_post', url },
  });
}

/**
 * Feed the observer real recorded blocks (mainnet's first three, each with a coinbase), or blocks
 * built here with an STX transfer each when the recordings are absent; either way three blocks,
 * each matching {@link registerHook}'s filters. Returns the chain tip's height.
 */
export async function feedBlocks(t: TestServer): Promise<number> {
  if (fixturesDir()) {
    await runReplay(fixturePath('stacks-blockchain-api/mainnet-block0.tsv'), { to: t.observerUrl, rate: 0 });
  } else {
    const chain = new ChainBuilder();
    for (let i = 0; i < 3; i++) {
      const block = chain.next({
        transactions: [await stxTransfer({ recipient: addressOf(TEST_KEYS.bob), amount: 5n })],
      });
      const res = await fetch(`${t.observerUrl}/new_block`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(block),
      });
      expect(res.status).to.equal(200);
    }
  }
  await untilIngested(t);
  const status = (await (await fetch(`${t.baseUrl}/chainhooks/v1`)).json()) as {
    chain_tip: { block_height: number };
  };
  return status.chain_tip.block_height;
}

/** Sign the page in with `key` (the test key by default), from the sign-in form, and wait for the hooks table. */
export async function signIn(page: Page, t: TestServer, key = TEST_API_KEY): Promise<void> {
  await page.goto(`${t.baseUrl}/dashboard/`);
  await page.getByLabel('API key').fill(key);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { level: 1, name: 'Hooks' }).waitFor(WAIT);
}

/** Fail when axe-core finds a serious or critical problem on the page as it is now. */
export async function expectAccessible(page: Page): Promise<void> {
  expect(await seriousAccessibilityViolations(page)).to.deep.equal([]);
}
