import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { buildDashboard } from '../../../scripts/build-dashboard.mjs';
import { startTestServer, TEST_API_KEY, type TestServer } from '../../support/api-server.js';
import { describeInBrowser, launchChromium, screenshot } from '../../support/browser.js';
import {
  WAIT,
  callApi,
  expectAccessible as expectPageAccessible,
  feedBlocks,
  registerHook,
  type Hook,
} from '../../support/dashboard.js';
import { startTestReceiver, type TestReceiver } from '../../support/test-receiver.js';

describeInBrowser('the dashboard in a browser', function () {
  this.timeout(60_000);
  let t: TestServer;
  let receiver: TestReceiver;
  let browser: Browser;
  let page: Page;
  const hooks: Record<string, Hook> = {};
  let tip = 0;
  // Every URL the page asked for, through the whole tour.
  const requested: string[] = [];

  before(async () => {
    // The server serves the dashboard from the build's folder: build it from these sources.
    buildDashboard();
    receiver = await startTestReceiver();
    t = await startTestServer({ STACKHOOKS_RETRY_SCHEDULE: '0,200ms' });
    for (const name of ['payments watcher', 'mint alerts', 'coinbase feed']) {
      hooks[name] = await registerHook(t, name, receiver.url(`/${name.replace(/ /g, '-')}`));
    }
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    page.on('request', (request) => requested.push(request.url()));
  });

  after(async () => {
    await browser?.close();
    await t?.stop();
    await receiver?.close();
  });

  const expectAccessible = () => expectPageAccessible(page);

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

  it('pages through many hooks, 20 at a time', async () => {
    for (let i = 0; i < 42; i++) {
      await t.server.stackhooks.registry.register('default', {
        name: `bulk hook ${i}`,
        version: '1',
        chain: 'stacks',
        network: 'mainnet',
        filters: { events: [{ type: 'coinbase' }] },
        action: { type: 'http_post', url: receiver.url('/bulk') },
      });
    }
    await page.reload();
    await page.getByText('Hooks 1 to 20 of 45').waitFor(WAIT);
    await page.getByRole('button', { name: 'Next page' }).click();
    await page.getByText('Hooks 21 to 40 of 45').waitFor(WAIT);
    await page.getByText('Page 2 of 3').waitFor(WAIT);
    await page.getByRole('button', { name: 'Last page' }).click();
    await page.getByText('Hooks 41 to 45 of 45').waitFor(WAIT);
    await page.getByLabel('Search by name').fill('bulk hook 4');
    await page.getByText('Hooks 1 to 3 of 3').waitFor(WAIT);
    await page.getByLabel('Search by name').fill('');
    await page.getByText('Hooks 1 to 20 of 45').waitFor(WAIT);
  });

  it('is usable by keyboard alone, the focus staying on the button pressed', async () => {
    await page.getByLabel('Search by name').focus();
    await page.keyboard.type('payments');
    await page.getByText('Hooks 1 to 1 of 1').waitFor(WAIT);
    const focusedName = () => page.evaluate('document.activeElement.getAttribute("aria-label")');
    for (let i = 0; i < 20 && (await focusedName()) !== 'Disable payments watcher'; i++) {
      await page.keyboard.press('Tab');
    }
    expect(await focusedName()).to.equal('Disable payments watcher');
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Enable payments watcher' }).waitFor(WAIT);
    expect(await focusedName()).to.equal('Enable payments watcher');
    expect((await callApi<Hook>(t, 'GET', `/me/${hooks['payments watcher'].uuid}`)).status.enabled).to.equal(
      false,
    );
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Disable payments watcher' }).waitFor(WAIT);
    expect((await callApi<Hook>(t, 'GET', `/me/${hooks['payments watcher'].uuid}`)).status.enabled).to.equal(
      true,
    );
    await page.getByLabel('Search by name').fill('');
    await page.getByText('Hooks 1 to 20 of 45').waitFor(WAIT);
  });

  it('opens a hook fed with fixture blocks and shows its deliveries with every attempt', async () => {
    tip = await feedBlocks(t);
    await page.getByRole('link', { name: 'coinbase feed' }).click();
    await page.getByRole('heading', { level: 1, name: 'coinbase feed' }).waitFor(WAIT);
    const delivered = page.locator('tr[data-delivery]').filter({ has: page.locator('.badge.delivered') });
    await delivered.first().waitFor(WAIT);
    await delivered.first().locator('summary').click();
    await delivered.first().getByRole('cell', { name: 'HTTP 200' }).first().waitFor(WAIT);
    await page.getByText(/[1-9]\d* deliveries/).waitFor(WAIT);
    await screenshot(page, 'hook');
    await expectAccessible();
  });

  it("shows the hook's definition in words and as JSON", async () => {
    const fact = (term: string) => page.locator('dl.facts dt', { hasText: term }).locator('+ dd');
    expect(await fact('Filters').textContent()).to.equal('coinbase; stx_transfer');
    expect(await fact('Webhook URL').textContent()).to.equal(receiver.url('/coinbase-feed'));
    expect(await fact('Network').textContent()).to.equal('stacks mainnet');
    await page.getByText('The definition as JSON').click();
    const json = JSON.parse((await page.locator('details pre').first().textContent()) ?? '') as unknown;
    const hook = await callApi<Hook>(t, 'GET', `/me/${hooks['coinbase feed'].uuid}`);
    expect(json).to.deep.equal(hook.definition);
  });

  it('names the problem when a block to evaluate is not in the archive', async () => {
    await page.getByLabel('Block height or index block hash').fill('99999999');
    await page.getByRole('button', { name: 'Evaluate' }).click();
    await page.getByRole('alert').filter({ hasText: 'no canonical block at height 99999999' }).waitFor(WAIT);
  });

  it('says what the evaluate box takes when given neither a height nor a hash', async () => {
    await page.getByLabel('Block height or index block hash').fill('abc');
    await page.getByRole('button', { name: 'Evaluate' }).click();
    await page.getByRole('alert').filter({ hasText: '"abc" is not a block height' }).waitFor(WAIT);
  });

  it('shows the attempts failing at a broken receiver as they happen, without a reload', async () => {
    receiver.reply(() => ({ status: 500 }));
    // Asked through the API, not the page: only polling can bring the failure onto the page.
    await callApi(t, 'POST', `/me/${hooks['coinbase feed'].uuid}/evaluate`, { block_height: tip });
    const failed = page.locator('tr[data-delivery]').filter({ has: page.locator('.badge.failed') });
    await failed.first().waitFor(WAIT);
    await failed.first().locator('summary').click();
    await failed.first().getByRole('cell', { name: 'HTTP 500' }).first().waitFor(WAIT);
    await page.getByText(/[1-9]\d* failed attempts/).waitFor(WAIT);
    await screenshot(page, 'hook-failure');
  });

  it('redelivers the failed delivery once the receiver is back', async () => {
    receiver.reply(() => ({ status: 200 }));
    const failed = page.locator('tr[data-delivery]').filter({ has: page.locator('.badge.failed') });
    const id = await failed.first().getAttribute('data-delivery');
    const before = receiver.received.length;
    await failed
      .first()
      .getByRole('button', { name: /^Redeliver/ })
      .click();
    await page.locator(`tr[data-delivery="${id}"] .badge.delivered`).waitFor(WAIT);
    expect(receiver.received.length).to.be.above(before);
  });

  it('renames the hook and points it at another URL, and the API agrees', async () => {
    await page.getByLabel('Name', { exact: true }).fill('coinbase feed, renamed');
    await page.getByLabel('Webhook URL').fill(receiver.url('/moved'));
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('heading', { level: 1, name: 'coinbase feed, renamed' }).waitFor(WAIT);
    const hook = await callApi<Hook>(t, 'GET', `/me/${hooks['coinbase feed'].uuid}`);
    expect(hook.definition.name).to.equal('coinbase feed, renamed');
    expect(hook.definition.action.url).to.equal(receiver.url('/moved'));
  });

  it('deletes a hook only once the deletion is confirmed', async () => {
    await page.goto(`${t.baseUrl}/dashboard/#/hooks/${hooks['mint alerts'].uuid}`);
    await page.getByRole('heading', { level: 1, name: 'mint alerts' }).waitFor(WAIT);
    await page.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
    await callApi<Hook>(t, 'GET', `/me/${hooks['mint alerts'].uuid}`);
    await page.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete hook' }).click();
    await page.getByRole('heading', { level: 1, name: 'Hooks' }).waitFor(WAIT);
    await page.getByRole('status').filter({ hasText: 'mint alerts was deleted.' }).waitFor(WAIT);
    const res = await fetch(`${t.baseUrl}/chainhooks/v1/me/${hooks['mint alerts'].uuid}`, {
      headers: { 'x-api-key': TEST_API_KEY },
    });
    expect(res.status).to.equal(404);
  });

  it('shows the chain tip, the last block, the lag, the gaps and the outbox', async () => {
    await page.getByRole('link', { name: 'System' }).click();
    await page.getByText(/^block \d+ \(0x/).waitFor(WAIT);
    const fact = async (term: string) =>
      (await page.locator('dl.facts dt', { hasText: term }).locator('+ dd').textContent()) ?? '';
    expect(await fact('Chain tip')).to.match(new RegExp(`^block ${tip} \\(0x[0-9a-f]{64}\\)$`));
    expect(await fact('Last block')).to.match(/\(\d+ (s|min) ago\)$/);
    expect(await fact('Lag')).to.match(/^\d+\.\d s, 0 posts not processed yet$/);
    expect(await fact('Open gaps')).to.equal('none');
    expect(await fact('Outbox')).to.match(/^(empty|\d+ payloads waiting, the oldest since .+)$/);
  });

  it('rotates the secret, showing it once', async () => {
    await page.getByRole('button', { name: 'Rotate the secret' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Rotate' }).click();
    const shown = page.locator('[data-secret="hex"]');
    await shown.waitFor(WAIT);
    const secret = await callApi<{ secret: string }>(t, 'GET', '/me/secret');
    expect(await shown.textContent()).to.equal(secret.secret);
    await screenshot(page, 'system');
    await expectAccessible();
    await page.getByRole('link', { name: 'Hooks' }).click();
    await page.getByRole('link', { name: 'System' }).click();
    await page.getByText(/^block \d+ \(0x/).waitFor(WAIT);
    expect(await page.locator('[data-secret]').count()).to.equal(0);
  });

  it('shows the hooks and a hook as cards at a phone width', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('link', { name: 'Hooks' }).click();
    await page.getByRole('link', { name: 'coinbase feed, renamed' }).waitFor(WAIT);
    await screenshot(page, 'hooks-phone');
    await expectAccessible();
    await page.getByRole('link', { name: 'coinbase feed, renamed' }).click();
    await page.locator('tr[data-delivery]').first().waitFor(WAIT);
    await screenshot(page, 'hook-phone');
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

  it('loaded nothing but its own files and the public API, all from its own server', () => {
    const outside = requested.filter(
      (url) =>
        !url.startsWith(`${t.baseUrl}/dashboard`) &&
        !url.startsWith(`${t.baseUrl}/chainhooks/v1/`) &&
        url !== `${t.baseUrl}/chainhooks/v1` &&
        !url.startsWith('data:'),
    );
    expect(requested.length).to.be.above(50);
    expect(outside).to.deep.equal([]);
  });
});
