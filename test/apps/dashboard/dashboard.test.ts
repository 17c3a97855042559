import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { buildDashboard } from '../../../scripts/build-dashboard.mjs';
import { startTestServer, TEST_API_KEY, type TestServer } from '../../support/api-server.js';
import {
  CHROMIUM,
  chromiumInstalled,
  launchChromium,
  screenshot,
  seriousAccessibilityViolations,
} from '../../support/browser.js';
import { startTestReceiver, type TestReceiver } from '../../support/test-receiver.js';

// Every wait is on a condition, long enough for a loaded machine; none is a sleep.
const WAIT = { timeout: 20_000 };

/** The API's answer to a call with the test key. */
async function callApi<T>(t: TestServer, method: string, path: string, body?: unknown): Promise<T> {
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

type Hook = { uuid: string; status: { enabled: boolean } };

if (!chromiumInstalled()) {
  describe('the dashboard in a browser', () => {
    it(`is skipped because no chromium is installed at ${CHROMIUM} (apt-get install chromium)`);
  });
} else {
  describe('the dashboard in a browser', function () {
    this.timeout(60_000);
    let t: TestServer;
    let receiver: TestReceiver;
    let browser: Browser;
    let page: Page;
    const hooks: Record<string, Hook> = {};

    before(async () => {
      // The server serves the dashboard from the build's folder: build it from these sources.
      buildDashboard();
      receiver = await startTestReceiver();
      t = await startTestServer({ STACKHOOKS_RETRY_SCHEDULE: '0,200ms' });
      for (const name of ['payments watcher', 'mint alerts', 'coinbase feed']) {
        hooks[name] = await callApi<Hook>(t, 'POST', '/me', {
          name,
          version: '1',
          chain: 'stacks',
          network: 'mainnet',
          filters: { events: [{ type: 'coinbase' }, { type: 'stx_transfer' }] },
          action: { type: 'http_post', url: receiver.url(`/${name.replace(/ /g, '-')}`) },
        });
      }
      browser = await launchChromium();
      page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    });

    after(async () => {
      await browser?.close();
      await t?.stop();
      await receiver?.close();
    });

    async function expectAccessible(): Promise<void> {
      expect(await seriousAccessibilityViolations(page)).to.deep.equal([]);
    }

    it('refuses a wrong key, saying so', async () => {
      await page.goto(`${t.baseUrl}/dashboard`);
      await page.getByLabel('API key').fill('not-a-key-of-this-server');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('alert').filter({ hasText: 'That API key was refused' }).waitFor(WAIT);
      expect(await page.evaluate('sessionStorage.length')).to.equal(0);
      expect(page.url()).not.to.contain('not-a-key');
      await screenshot(page, 'sign-in');
      await expectAccessible();
    });

    it('signs in with a key and lists the hooks registered through the API', async () => {
      await page.getByLabel('API key').fill(TEST_API_KEY);
      await page.getByRole('button', { name: 'Sign in' }).click();
      for (const name of Object.keys(hooks)) await page.getByRole('link', { name }).waitFor(WAIT);
      await page.getByText('Hooks 1 to 3 of 3').waitFor(WAIT);
      expect(page.url()).not.to.contain(TEST_API_KEY);
      await screenshot(page, 'hooks');
      await expectAccessible();
    });

    it('enables every selected hook at once, and the API agrees', async () => {
      // A hook is registered disabled.
      await page.getByLabel('Select every hook on this page').check();
      await page.getByText('3 selected').waitFor(WAIT);
      await page.getByRole('button', { name: 'Enable selected' }).click();
      await page.getByRole('button', { name: 'Disable mint alerts' }).waitFor(WAIT);
      const listing = await callApi<{ results: Hook[] }>(t, 'GET', '/me');
      expect(listing.results.map((hook) => hook.status.enabled)).to.deep.equal([true, true, true]);
    });

    it('disables one hook, and the API agrees', async () => {
      await page.getByRole('button', { name: 'Disable mint alerts' }).click();
      await page.getByRole('button', { name: 'Enable mint alerts' }).waitFor(WAIT);
      const hook = await callApi<Hook>(t, 'GET', `/me/${hooks['mint alerts'].uuid}`);
      expect(hook.status.enabled).to.equal(false);
    });

    it('searches by name and filters by enabled', async () => {
      await page.getByLabel('Search by name').fill('coin');
      await page.getByText('Hooks 1 to 1 of 1').waitFor(WAIT);
      await page.getByRole('link', { name: 'coinbase feed' }).waitFor(WAIT);
      await page.getByLabel('Search by name').fill('');
      await page.getByLabel('Enabled', { exact: true }).selectOption('false');
      await page.getByText('Hooks 1 to 1 of 1').waitFor(WAIT);
      await page.getByRole('link', { name: 'mint alerts' }).waitFor(WAIT);
      await page.getByLabel('Enabled', { exact: true }).selectOption('');
      await page.getByText('Hooks 1 to 3 of 3').waitFor(WAIT);
    });

    it('shows the hooks as cards at a phone width', async () => {
      await page.setViewportSize({ width: 390, height: 844 });
      await page.getByRole('link', { name: 'coinbase feed' }).waitFor(WAIT);
      await screenshot(page, 'hooks-phone');
      await expectAccessible();
      await page.setViewportSize({ width: 1280, height: 800 });
    });

    it('signs out, forgetting the key', async () => {
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.getByRole('button', { name: 'Sign in' }).waitFor(WAIT);
      expect(await page.evaluate('sessionStorage.length')).to.equal(0);
      await page.reload();
      await page.getByRole('button', { name: 'Sign in' }).waitFor(WAIT);
    });
  });
}
