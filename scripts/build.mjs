// `npm run build`: compile the package into dist/ (ESM, .d.ts, source maps) and copy the files tsc
// does not emit. Plain JavaScript so that it runs wherever the package is built (packed, or
// installed from git), with nothing but node and the devDependencies.
import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { buildDashboard } from './build-dashboard.mjs';

const require = createRequire(import.meta.url);

// A clean build (no output of a deleted source file may linger in the package), made beside dist/
// and put in its place only when whole: a server running from this folder (it serves the dashboard
// from dist/) never finds dist/ missing or half built while a build runs.
const NEXT = 'dist.next';
rmSync(NEXT, { recursive: true, force: true });
const tsc = spawnSync(
  process.execPath,
  [require.resolve('typescript/bin/tsc'), '-p', 'tsconfig.build.json', '--outDir', NEXT],
  {
    stdio: 'inherit',
  },
);
if (tsc.status !== 0) process.exit(tsc.status ?? 1);

// The Postgres schema is SQL read at run time beside the compiled migrate.js.
cpSync('adapters/store-postgres/migrations', `${NEXT}/adapters/store-postgres/migrations`, {
  recursive: true,
});

// The web dashboard the server serves at /dashboard/, compiled for the browser.
buildDashboard(`${NEXT}/apps/dashboard`);

rmSync('dist.old', { recursive: true, force: true });
if (existsSync('dist')) renameSync('dist', 'dist.old');
renameSync(NEXT, 'dist');
rmSync('dist.old', { recursive: true, force: true });

// The command line runs as an executable: npx and a clone's bin link call the file itself, and tsc
// writes it without the execute bit.
const { bin } = JSON.parse(readFileSync('package.json', 'utf8'));
for (const file of Object.values(bin)) chmodSync(file, 0o755);
