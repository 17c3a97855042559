import { existsSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';

const require = createRequire(import.meta.url);

/** Debian's chromium, which CI installs; `CHROMIUM_PATH` names another. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Where browser tests write their screenshots (under the ignored .tmp/ folder, never committed). */
export const SCREENSHOTS = fileURLToPath(new URL('../../.tmp/dashboard-screenshots/', import.meta.url));

/** Whether a chromium to drive is installed. */
export function chromiumInstalled(): boolean {
  return existsSync(CHROMIUM);
}

/** Describe a suite that drives chromium, or, without one, a pending test saying how to install it. */
export function describeInBrowser(title: string, suite: (this: Mocha.Suite) => void): void {
  if (chromiumInstalled()) {
    describe(title, suite);
    return;
  }
  describe(title, () => {
    it(`is skipped because no chromium is installed at ${CHROMIUM} (apt-get install chromium)`);
  });
}

/** Start a headless chromium. */
export function launchChromium(): Promise<Browser> {
  // The sandbox needs user namespaces, which a container running as root often lacks.
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
}

/** Save a full-page screenshot of what the page shows now under SCREENSHOTS. */
export async function screenshot(page: Page, name: string): Promise<string> {
  await mkdir(SCREENSHOTS, { recursive: true });
  const path = join(SCREENSHOTS, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}

/** One accessibility problem axe-core found: its rule, impact and where. */
export type AxeViolation = { id: string; impact: string | null; help: string; targets: string[] };

/** The serious and critical problems axe-core finds on the page as it is now. */
export async function seriousAccessibilityViolations(page: Page): Promise<AxeViolation[]> {
  // Evaluated through the DevTools protocol, which the page's script policy does not govern.
  await page.evaluate(await readFile(require.resolve('axe-core/axe.min.js'), 'utf8'));
  const violations = (await page.evaluate('axe.run().then((result) => result.violations)')) as {
    id: string;
    impact: string | null;
    help: string;
    nodes: { target: string[] }[];
  }[];
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      targets: v.nodes.map((n) => n.target.join(' ')),
    }));
}
