import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { buildDashboard } from '../../../scripts/build-dashboard.mjs';
import { startTestServer, type TestServer } from '../../support/api-server.js';
import { describeInBrowser, launchChromium } from '../../support/browser.js';
import { WAIT, signIn } from '../../support/dashboard.js';

const HOOKS = 2_000;

describeInBrowser('the hooks table in a browser', function () {
  this.timeout(60_000);
  let t: TestServer;
  let browser: Browser;
  let page: Page;

  before(async () => {
    buildDashboard();
    t = await startTestServer({ STACKHOOKS_MAX_HOOKS_PER_OWNER: String(HOOKS) });
    const { registry } = t.server.stackhooks;
    await Promise.all(
      Array.from({ length: HOOKS }, (_, i) =>
        registry.register('default', {
          name: `hook ${String(i).padStart(4, '0')}`,
          version: '1',
          chain: 'stacks',
          network: 'mainnet',
          filters: { events: [{ type: 'coinbase' }] },
          action: { type: 'http_post', url: 'http://127.0.0.1:9/hooks' },
        }),
      ),
    );
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await signIn(page, t);
  });

  after(async () => {
    await browser?.close();
    await t?.stop();
  });

  it('pages through thousands of hooks, reading one page of 20 at a time', async () => {
    const listings: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname === '/chainhooks/v1/me') listings.push(url.search);
    });
    await page.reload();
    await page.getByText('Hooks 1 to 20 of 2,000').waitFor(WAIT);
    await page.getByText('Page 1 of 100').waitFor(WAIT);
    expect(await page.locator('tbody tr[data-uuid]').count()).to.equal(20);
    await page.getByRole('button', { name: 'Last page' }).click();
    await page.getByText('Hooks 1,981 to 2,000 of 2,000').waitFor(WAIT);
    expect(await page.locator('tbody tr[data-uuid]').count()).to.equal(20);
    await page.getByRole('button', { name: 'Previous page' }).click();
    await page.getByText('Page 99 of 100').waitFor(WAIT);
    expect(listings).to.deep.equal(['?offset=0&limit=20', '?offset=1980&limit=20', '?offset=1960&limit=20']);
  });

  it('finds one hook among thousands by a part of its name', async () => {
    await page.getByLabel('Search by name').fill('hook 1234');
    await page.getByText('Hooks 1 to 1 of 1').waitFor(WAIT);
    await page.getByRole('link', { name: 'hook 1234' }).waitFor(WAIT);
  });

  it('signs the tab out, saying why, when its key is revoked while it is open', async () => {
    const { keys } = t.server.stackhooks;
    const issued = await keys.issue('carol');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await signIn(page, t, issued.key);
    await page.getByText('No hooks yet').waitFor(WAIT);
    await keys.revoke(issued.id);
    await page.getByRole('link', { name: 'System' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor(WAIT);
    await page.getByText('The API key was refused: it is unknown or has been revoked.').waitFor(WAIT);
    expect(await page.evaluate('sessionStorage.length')).to.equal(0);
  });
});
