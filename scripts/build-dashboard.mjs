// Build the web dashboard: its TypeScript compiled by tsc into plain ES modules (no bundler, no
// framework), beside its page and stylesheet. `node scripts/build-dashboard.mjs [folder]` builds
// into `folder` (default dist/apps/dashboard, where the server looks for it).
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const SOURCE = 'apps/dashboard';
const STATIC_FILES = ['index.html', 'style.css'];

/** Compile the dashboard into `folder`; throws when tsc reports an error. */
export function buildDashboard(folder = 'dist/apps/dashboard') {
  mkdirSync(folder, { recursive: true });
  // Built beside the folder, then each file renamed into it: a server reading the folder while it
  // is rebuilt reads each file whole, the old one or the new one, never one half written.
  const staging = mkdtempSync(join(dirname(resolve(folder)), '.dashboard-build-'));
  try {
    const tsc = spawnSync(
      process.execPath,
      [require.resolve('typescript/bin/tsc'), '-p', `${SOURCE}/tsconfig.json`, '--outDir', staging],
      { stdio: 'inherit' },
    );
    if (tsc.status !== 0) throw new Error(`the dashboard did not compile (tsc exit ${tsc.status})`);
    for (const file of STATIC_FILES) copyFileSync(`${SOURCE}/${file}`, join(staging, file));
    for (const file of readdirSync(staging)) renameSync(join(staging, file), join(folder, file));
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  buildDashboard(process.argv[2]);
}
