import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { buildDashboard } from '../../../scripts/build-dashboard.mjs';
import { startTestServer, type TestServer } from '../../support/api-server.js';
import { describeInBrowser, launchChromium, screenshot } from '../../support/browser.js';
import {
  WAIT,
  callApi,
  expectAccessible,
  feedBlocks,
  registerHook,
  signIn,
  type Hook,
} from '../../support/dashboard.js';
import { until } from '../../support/delivery-server.js';
import { startTestReceiver, type TestReceiver } from '../../support/test-receiver.js';

type Backfill = { id: string; state: string; reason: string | null };
type InterruptedHook = Hook & {
  delivery?: { interruption?: { first_missed_block_height: number }; resuming?: unknown };
};

// The chart of the last hour reads at most this many deliveries (3 pages of 60).
const CHART_READS = 180;

/** A promise the test resolves when it chooses: the slow receiver answers once it is. */
function gate(): { opened: Promise<void>; open(): void } {
  let open = () => {};
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

describeInBrowser("a hook's page in a browser", function () {
  this.timeout(60_000);
  let t: TestServer;
  let receiver: TestReceiver;
  let browser: Browser;
  let page: Page;
  let tip = 0;
  let slow = gate();
  // Receivers that answer 500 until a test takes them out of this set.
  const failing = new Set(['failing receiver', 'skipping receiver', 'resumed from the table']);
  const hooks: Record<string, Hook> = {};
  const path = (name: string) => `/${name.replace(/ /g, '-')}`;

  before(async () => {
    buildDashboard();
    receiver = await startTestReceiver();
    receiver.reply((request) => {
      if (request.path === path('slow receiver')) return { status: 200, after: slow.opened };
      if ([...failing].some((name) => request.path === path(name))) return { status: 500 };
      return { status: 200 };
    });
    t = await startTestServer({
      STACKHOOKS_RETRY_SCHEDULE: '0,200ms',
      // The test asks the API more often than a person would, beside the page's polling.
      STACKHOOKS_RATE_LIMIT_PER_MINUTE: '100000',
    });
    for (const name of ['backfill feed', 'slow receiver', 'busy hook', ...failing]) {
      hooks[name] = await registerHook(t, name, receiver.url(path(name)));
    }
    // A failing receiver's first live payload fails for good, which interrupts its hook and
    // makes it skip the blocks after.
    for (const name of ['busy hook', ...failing]) {
      await callApi(t, 'PATCH', `/me/${hooks[name].uuid}/enabled`, { enabled: true });
    }
    tip = await feedBlocks(t);
    for (const name of failing) await until(async () => (await hookOf(name)).status.status === 'interrupted');
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await signIn(page, t);
  });

  after(async () => {
    slow.open();
    await browser?.close();
    await t?.stop();
    await receiver?.close();
  });

  const hookOf = (name: string) => callApi<InterruptedHook>(t, 'GET', `/me/${hooks[name].uuid}`);
  const openHook = async (name: string) => {
    await page.goto(`${t.baseUrl}/dashboard/#/hooks/${hooks[name].uuid}`);
    await page.getByRole('heading', { level: 1, name }).waitFor(WAIT);
  };
  const cell = (row: ReturnType<Page['locator']>, label: string) => row.locator(`td[data-label="${label}"]`);

  it('starts a backfill by keyboard and follows it to done, with its counters', async () => {
    await openHook('backfill feed');
    await page.getByLabel('From height').focus();
    await page.keyboard.type(String(tip - 2));
    await page.keyboard.press('Tab');
    await page.keyboard.type(String(tip));
    await page.keyboard.press('Enter');
    await page
      .getByRole('status')
      .filter({ hasText: `A backfill of blocks ${tip - 2} to ${tip} was started` })
      .waitFor(WAIT);
    const row = page.locator('tr[data-backfill]').filter({ has: page.locator('.badge.done') });
    await row.waitFor(WAIT);
    expect(await cell(row, 'Range').textContent()).to.equal(`${tip - 2} to ${tip}`);
    expect(await cell(row, 'Blocks scanned').textContent()).to.equal('3 of 3');
    expect(await cell(row, 'Blocks matched').textContent()).to.equal('3');
    expect(await cell(row, 'Payloads delivered').textContent()).to.equal('3 of 3');
    expect(await cell(row, 'Rate').textContent()).to.match(/^\d+(\.\d)? blocks\/s$/);
    expect(await cell(row, 'Started').textContent()).not.to.equal('not yet');
    expect(await cell(row, 'Finished').textContent()).not.to.equal('—');
    const id = await row.getAttribute('data-backfill');
    const sent = receiver.received.filter((r) => r.path === path('backfill feed'));
    expect(sent.map((r) => r.headers['stackhooks-backfill-id'])).to.deep.equal([id, id, id]);
    await page.getByText('1 backfill, newest first').waitFor(WAIT);
    await screenshot(page, 'hook-backfills');
    await expectAccessible(page);
  });

  it('names the field, in the form’s words, when a backfill cannot start', async () => {
    await page.getByLabel('From height').fill(String(tip + 100));
    await page.getByLabel('To height (optional)').fill('');
    await page.getByRole('button', { name: 'Start backfill' }).click();
    const message = `From height is above the archive (the archive's tip is ${tip}).`;
    await page
      .getByRole('alert')
      .filter({ hasText: `The backfill was not started: ${message}` })
      .waitFor(WAIT);
    expect(await page.locator('#backfill-from-problem').textContent()).to.equal(message);
    expect(await page.getByLabel('From height').getAttribute('aria-invalid')).to.equal('true');
    expect(await page.evaluate('document.activeElement.id')).to.equal('backfill-from');

    await page.getByLabel('From height').fill(String(tip));
    await page.getByLabel('To height (optional)').fill(String(tip - 1));
    await page.getByRole('button', { name: 'Start backfill' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: `To height must be at least from height (${tip}).` })
      .waitFor(WAIT);
    expect(await page.getByLabel('From height').getAttribute('aria-invalid')).to.equal(null);
    expect(await page.evaluate('document.activeElement.id')).to.equal('backfill-to');
    await expectAccessible(page);
  });

  it("shows a backfill's progress live while its receiver is slow, then done", async () => {
    await openHook('slow receiver');
    await page.getByLabel('From height').fill(String(tip - 2));
    await page.getByRole('button', { name: 'Start backfill' }).click();
    const row = page.locator('tr[data-backfill]').first();
    await row.locator('.badge.running').waitFor(WAIT);
    // Its receiver holds the first payload: the scan is over, nothing is delivered yet.
    await cell(row, 'Payloads delivered')
      .filter({ hasText: /^0 of 3$/ })
      .waitFor(WAIT);
    expect(await cell(row, 'Blocks scanned').textContent()).to.equal('3 of 3');
    slow.open();
    await row.locator('.badge.done').waitFor(WAIT);
    expect(await cell(row, 'Payloads delivered').textContent()).to.equal('3 of 3');
  });

  it('cancels a running backfill by keyboard once the cancel is confirmed, and the API agrees', async () => {
    slow = gate();
    await page.getByLabel('From height').fill(String(tip - 2));
    await page.getByRole('button', { name: 'Start backfill' }).click();
    await page.getByText('2 backfills, newest first').waitFor(WAIT);
    const row = page.locator('tr[data-backfill]').first();
    await row.locator('.badge.running').waitFor(WAIT);
    const cancel = row.getByRole('button', { name: `Cancel the backfill of blocks ${tip - 2} to ${tip}` });
    // By keyboard: Escape keeps it running and gives the focus back; Tab, Enter confirms.
    const focused = () => page.evaluate('document.activeElement.textContent');
    await cancel.focus();
    await page.keyboard.press('Enter');
    await page.getByRole('dialog').waitFor(WAIT);
    expect(await focused()).to.equal('Keep it running');
    // The list is read again while the dialog is open: the row (its rate) is redrawn under it.
    const rate = await cell(row, 'Rate').textContent();
    await cell(row, 'Rate')
      .filter({ hasNotText: rate ?? '' })
      .waitFor(WAIT);
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ ...WAIT, state: 'detached' });
    expect(await row.locator('.badge').textContent()).to.equal('running');
    expect(await page.evaluate('document.activeElement.getAttribute("aria-label")')).to.equal(
      `Cancel the backfill of blocks ${tip - 2} to ${tip}`,
    );
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    expect(await focused()).to.equal('Cancel backfill');
    await page.keyboard.press('Enter');
    await row.locator('.badge.cancelled').waitFor(WAIT);
    expect(await cell(row, 'State').locator('.hint').textContent()).to.equal('cancelled by request');
    expect(await row.getByRole('button').count()).to.equal(0);
    const id = await row.getAttribute('data-backfill');
    const backfill = await callApi<Backfill>(t, 'GET', `/me/${hooks['slow receiver'].uuid}/backfills/${id}`);
    expect(backfill.state).to.equal('cancelled');
    expect(await page.evaluate('document.activeElement.id')).to.equal('backfills-title');
    slow.open();
  });

  it('enables and disables the hook from its page, and the API agrees', async () => {
    await openHook('backfill feed');
    await page.getByRole('button', { name: 'Enable', exact: true }).click();
    await page.getByRole('button', { name: 'Disable', exact: true }).waitFor(WAIT);
    const uuid = hooks['backfill feed'].uuid;
    expect((await callApi<Hook>(t, 'GET', `/me/${uuid}`)).status.enabled).to.equal(true);
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Enable', exact: true }).waitFor(WAIT);
    expect((await callApi<Hook>(t, 'GET', `/me/${uuid}`)).status.enabled).to.equal(false);
  });

  it('evaluates a block from the page and shows the delivery it made', async () => {
    await page.getByLabel('Block height or index block hash').fill(String(tip));
    await page.getByRole('button', { name: 'Evaluate' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `Block ${tip} is being evaluated` })
      .waitFor(WAIT);
    const evaluation = page
      .locator('tr[data-delivery]')
      .filter({ has: page.locator('td[data-label="Kind"]', { hasText: 'evaluation' }) });
    await evaluation.locator('.badge.delivered').waitFor(WAIT);
    expect(await cell(evaluation, 'Blocks').textContent()).to.equal(`apply ${tip}`);
  });

  it('filters the hooks table by status', async () => {
    await page.getByRole('link', { name: 'Hooks', exact: true }).click();
    await page.getByLabel('Status', { exact: true }).selectOption('interrupted');
    await page.getByText('Hooks 1 to 3 of 3').waitFor(WAIT);
    for (const name of failing) await page.getByRole('link', { name }).waitFor(WAIT);
    // Each row counts its failed deliveries from the delivery log, as the API does.
    const uuid = hooks['failing receiver'].uuid;
    const failed = await callApi<{ total: number }>(t, 'GET', `/me/${uuid}/deliveries?state=failed&limit=1`);
    expect(failed.total).to.be.above(0);
    await page
      .locator(`tr[data-uuid="${uuid}"] td[data-label="Failed deliveries"]`)
      .filter({ hasText: new RegExp(`^${failed.total}$`) })
      .waitFor(WAIT);
    await page.getByLabel('Status', { exact: true }).selectOption('');
    await page.getByText('Hooks 1 to 6 of 6').waitFor(WAIT);
  });

  it('says in words what to do when the API refuses a redelivery (409)', async () => {
    await openHook('failing receiver');
    const failed = page
      .locator('tr[data-delivery]')
      .filter({ has: page.locator('td[data-label="Kind"]', { hasText: 'live' }) })
      .filter({ has: page.locator('.badge.failed') })
      .first();
    const refused = page.waitForResponse((r) => r.url().endsWith('/redeliver'));
    await failed.getByRole('button', { name: /^Redeliver/ }).click();
    expect((await refused).status()).to.equal(409);
    await page
      .getByRole('alert')
      .filter({
        hasText:
          'The delivery was not sent again: this hook is interrupted, and a payload sent now would arrive after newer blocks. Resume the hook',
      })
      .waitFor(WAIT);
    await expectAccessible(page);
  });

  it('resumes an interrupted hook from the block it missed first', async () => {
    failing.delete('failing receiver');
    const sent = () => receiver.received.filter((r) => r.path === path('failing receiver')).length;
    const before = sent();
    await page.getByRole('button', { name: /^Resume from block \d+$/ }).click();
    await page.getByRole('button', { name: 'Disable', exact: true }).waitFor(WAIT);
    // The refusal shown before is over once the hook resumes.
    expect(await page.locator('#problem').textContent()).to.equal('');
    await until(() => sent() > before);
    await until(async () => {
      const hook = await hookOf('failing receiver');
      return hook.status.status === 'streaming' && hook.delivery?.resuming === undefined;
    });
    await page.locator('.badge.streaming').waitFor(WAIT);
  });

  it('enables an interrupted hook from the tip, then backfills the blocks it skipped', async () => {
    failing.delete('skipping receiver');
    const missed = (await hookOf('skipping receiver')).delivery!.interruption!.first_missed_block_height;
    await openHook('skipping receiver');
    await page.getByRole('button', { name: 'Enable from the tip' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `It skipped the blocks from ${missed} on: start a backfill from there` })
      .waitFor(WAIT);
    expect(await page.getByLabel('From height').inputValue()).to.equal(String(missed));
    expect((await hookOf('skipping receiver')).status.enabled).to.equal(true);
    await page.getByRole('button', { name: 'Start backfill' }).click();
    const row = page.locator('tr[data-backfill]').filter({ has: page.locator('.badge.done') });
    await row.waitFor(WAIT);
    const blocks = tip - missed + 1;
    expect(await cell(row, 'Payloads delivered').textContent()).to.equal(`${blocks} of ${blocks}`);
    const id = await row.getAttribute('data-backfill');
    const backfilled = receiver.received.filter(
      (r) => r.path === path('skipping receiver') && r.headers['stackhooks-backfill-id'] === id,
    );
    expect(
      backfilled.map(
        (r) =>
          (JSON.parse(r.body) as { event: { apply: { block_identifier: { index: number } }[] } }).event
            .apply[0].block_identifier.index,
      ),
    ).to.deep.equal(Array.from({ length: blocks }, (_, i) => missed + i));
    // A receiver that failed, the hook enabled from the tip, and the backfill that made up for it.
    const failedWithAttempts = page
      .locator('tr[data-delivery]')
      .filter({ has: page.locator('.badge.failed') })
      .filter({ has: page.locator('summary') });
    await failedWithAttempts.first().locator('summary').click();
    await screenshot(page, 'hook-backfilled');
    await expectAccessible(page);
  });

  it('resumes an interrupted hook from the hooks table', async () => {
    failing.delete('resumed from the table');
    const sent = () => receiver.received.filter((r) => r.path === path('resumed from the table')).length;
    const before = sent();
    await page.getByRole('link', { name: 'Hooks', exact: true }).click();
    await page.getByRole('button', { name: 'Resume resumed from the table' }).click();
    await page.getByRole('button', { name: 'Disable resumed from the table' }).waitFor(WAIT);
    await until(async () => {
      const hook = await hookOf('resumed from the table');
      return hook.status.status === 'streaming' && hook.delivery?.resuming === undefined;
    });
    await until(() => sent() > before);
  });

  it('says the chart shows the newest deliveries only when the hour holds more than it reads', async () => {
    const uuid = hooks['busy hook'].uuid;
    for (let i = 0; i <= CHART_READS; i++) {
      await callApi(t, 'POST', `/me/${uuid}/evaluate`, { block_height: tip });
    }
    await until(
      async () =>
        (await callApi<{ total: number }>(t, 'GET', `/me/${uuid}/deliveries?limit=1`)).total > CHART_READS,
    );
    await openHook('busy hook');
    const words = `the newest ${CHART_READS} deliveries only: the hour holds more`;
    await page.getByText(`Showing ${words}.`).waitFor(WAIT);
    const chart = page.getByRole('img', { name: /^Last hour:/ });
    expect(await chart.getAttribute('aria-label')).to.equal(
      `Last hour: ${CHART_READS} deliveries, 0 failed attempts (${words})`,
    );
    await openHook('backfill feed');
    await page.getByRole('img', { name: /^Last hour: 4 deliveries/ }).waitFor(WAIT);
    expect(await page.getByText(/the hour holds more/).count()).to.equal(0);
  });

  it('shows the backfills as cards at a phone width', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.locator('tr[data-backfill]').first().waitFor(WAIT);
    await screenshot(page, 'hook-backfills-phone');
    await expectAccessible(page);
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('disables every selected hook at once, and the API agrees', async () => {
    await page.getByRole('link', { name: 'Hooks', exact: true }).click();
    await page.getByLabel('Select failing receiver').check();
    await page.getByLabel('Select busy hook').check();
    await page.getByText('2 selected').waitFor(WAIT);
    await page.getByRole('button', { name: 'Disable selected' }).click();
    await page.getByRole('button', { name: 'Enable failing receiver' }).waitFor(WAIT);
    await page.getByRole('button', { name: 'Enable busy hook' }).waitFor(WAIT);
    for (const name of ['failing receiver', 'busy hook'])
      expect((await hookOf(name)).status.enabled, name).to.equal(false);
  });
});
