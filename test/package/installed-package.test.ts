import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, readdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { firstCodeBlock } from '../support/markdown.js';
import { startTestReceiver } from '../support/test-receiver.js';
import { makeTempDir } from '../support/temp-dir.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TSC = join(ROOT, 'node_modules/typescript/bin/tsc');
// npm and npx beside the node that runs the suite.
const NPM_CLI = join(dirname(process.execPath), 'npm');
const NPX_CLI = join(dirname(process.execPath), 'npx');

type Run = { code: number | null; out: string };

/** Run a command to its end, with its stdout and stderr together. */
async function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): Promise<Run> {
  const child = spawn(command, args, {
    cwd,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return collect(child);
}

async function collect(child: ChildProcess): Promise<Run> {
  let out = '';
  child.stdout?.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (out += c.toString()));
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, out };
}

// What a TypeScript consumer writes against the public types; compiled with --strict and without
// skipLibCheck, so every declaration the package ships is checked too.
const CONSUMER_TS = `
import fc from 'fast-check';
import {
  createStackhooks,
  startObserver,
  StackhooksError,
  type HookDefinition,
  type HookRecord,
  type RunningObserver,
  type Stackhooks,
  type StackhooksOptions,
} from 'stackhooks';
import { arbitraryBlock, arbitraryHookSet, HookIndex, matchBlockReference, type BlockMatches } from 'stackhooks/testing';

const options: StackhooksOptions = { dataDir: './data', delivery: { allowPrivateTargets: false } };
const definition: HookDefinition = {
  name: 'stx transfers',
  version: '1',
  chain: 'stacks',
  network: 'mainnet',
  filters: { events: [{ type: 'stx_transfer' }] },
  action: { type: 'http_post', url: 'https://example.com/hooks' },
};

export async function start(): Promise<{ stackhooks: Stackhooks; observer: RunningObserver; hook: HookRecord }> {
  const stackhooks = await createStackhooks(options);
  const hook = await stackhooks.registry.register('me', definition);
  const observer = await startObserver(stackhooks, { port: 0 });
  if (!hook.status.enabled) throw new StackhooksError('validation', 'not enabled');
  return { stackhooks, observer, hook };
}

export function indexAgreesWithReference(): void {
  fc.assert(
    fc.property(arbitraryBlock(), arbitraryHookSet(), (block, hooks) => {
      const index = new HookIndex();
      for (const hook of hooks) index.add(hook.uuid, hook.filters);
      const expected: BlockMatches = matchBlockReference(hooks, block);
      return index.matchBlock(block).size === expected.size;
    }),
  );
}
`;

/**
 * Copy the project's own files (those git tracks or would add) into `folder`, with this checkout's
 * node_modules linked: packing there builds there, and never empties the dist/ of this checkout,
 * which the dashboard's tests serve from while they run beside this one.
 */
async function copyProject(folder: string): Promise<void> {
  const { stdout } = await promisify(execFile)(
    'git',
    ['ls-files', '-z', '--cached', '--others', '--exclude-standard'],
    { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 },
  );
  for (const file of stdout.split('\0')) {
    // A tracked file deleted and not yet committed is listed, and has nothing to copy.
    if (!file || !existsSync(join(ROOT, file))) continue;
    await mkdir(dirname(join(folder, file)), { recursive: true });
    await copyFile(join(ROOT, file), join(folder, file));
  }
  await symlink(join(ROOT, 'node_modules'), join(folder, 'node_modules'));
}

describe('the package installed from its tarball', function () {
  // Packing builds the package (tsc) and installing reads every dependency from the npm cache.
  this.timeout(240_000);
  let project: string;
  let source: string;
  let version: string;
  let packedFiles: string[];

  before(async () => {
    project = await makeTempDir('stackhooks-package-');
    source = await makeTempDir('stackhooks-source-');
    await copyProject(source);
    version = (JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
    // Packing runs the build (prepare), as a publish or an install from git does.
    const packed = await run(NPM_CLI, ['pack', '--json', '--pack-destination', project], source);
    expect(packed.code, packed.out).to.equal(0);
    const report = JSON.parse(packed.out.slice(packed.out.search(/^\[/m))) as {
      filename: string;
      files: { path: string }[];
    }[];
    packedFiles = report[0].files.map((file) => file.path);
    const tarball = (await readdir(project)).find((name) => name.endsWith('.tgz'));
    expect(tarball, packed.out).to.be.a('string');
    await writeFile(
      join(project, 'package.json'),
      JSON.stringify({ name: 'consumer', private: true, type: 'module' }),
    );
    // What a user types: the package, and what their own code imports (koa for the embedding
    // example, fast-check for properties).
    const installed = await run(
      NPM_CLI,
      ['install', `./${tarball}`, 'koa', 'fast-check', '--prefer-offline', '--no-audit', '--no-fund'],
      project,
    );
    expect(installed.code, installed.out).to.equal(0);
  });

  after(async () => {
    if (project) await rm(project, { recursive: true, force: true });
    if (source) await rm(source, { recursive: true, force: true });
  });

  it('ships compiled JavaScript, declarations, the boot-contract ABIs, the spec, the migrations and the dashboard, and no sources or tests', async () => {
    const files = packedFiles;
    expect(files).to.include.members([
      'dist/apps/library/index.js',
      'dist/apps/library/index.d.ts',
      'dist/apps/library/index.js.map',
      'dist/apps/cli/main.js',
      'dist/core/contracts/boot-contracts.json',
      'dist/spec/openapi.json',
      'dist/spec/schemas/definition.json',
      'dist/adapters/store-postgres/migrations/001_hooks_accounts.sql',
      'dist/apps/dashboard/index.html',
      'dist/apps/dashboard/app.js',
      'dist/apps/dashboard/style.css',
      'LICENSE',
      'CHANGELOG.md',
    ]);
    expect(
      files.filter((f) => /^(test|bench|apps|core|adapters|spec)\//.test(f) || /(?<!\.d)\.ts$/.test(f)),
    ).to.deep.equal([]);
  });

  it('carries its license text, its changelog, its repository and the Node versions it runs on', async () => {
    const installed = join(project, 'node_modules/stackhooks');
    const manifest = JSON.parse(await readFile(join(installed, 'package.json'), 'utf8')) as {
      license: string;
      repository: { url: string };
      engines: { node: string };
    };
    expect(manifest.license).to.equal('Apache-2.0');
    expect(manifest.repository.url).to.match(/^git\+https:\/\/github\.com\/.+\.git$/);
    expect(manifest.engines.node).to.equal('>=20.19');
    expect(await readFile(join(installed, 'LICENSE'), 'utf8')).to.match(
      /Apache License\s+Version 2\.0, January 2004/,
    );
    expect(await readFile(join(installed, 'CHANGELOG.md'), 'utf8')).to.include(`## ${version}`);
  });

  it('builds its command line as an executable, so that a clone runs it through npx too', async () => {
    expect((await stat(join(source, 'dist/apps/cli/main.js'))).mode & 0o111).to.equal(0o111);
  });

  it('answers npx stackhooks --version with the package version', async () => {
    const result = await run(NPX_CLI, ['--no', '--', 'stackhooks', '--version'], project);
    expect(result.code, result.out).to.equal(0);
    expect(result.out.trim()).to.equal(version);
  });

  it('answers npx stackhooks --help with every command', async () => {
    const result = await run(NPX_CLI, ['--no', '--', 'stackhooks', '--help'], project);
    expect(result.code, result.out).to.equal(0);
    for (const command of ['serve', 'migrate', 'keys', 'import', 'example-chain', 'replay', 'receive'])
      expect(result.out).to.include(command);
  });

  it('runs the docs/embedding.md example with plain node: blocks replayed into its observer go out as webhooks', async () => {
    const code = await firstCodeBlock(join(ROOT, 'docs/embedding.md'), 'js');
    await writeFile(join(project, 'service.mjs'), code);
    const receiver = await startTestReceiver();
    const service = spawn(process.execPath, ['service.mjs'], {
      cwd: project,
      env: {
        ...process.env,
        DATA_DIR: join(project, 'data'),
        PORT: '0',
        OBSERVER_PORT: '0',
        WEBHOOK_URL: receiver.url('/hooks'),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = collect(service);
    try {
      let out = '';
      service.stdout!.on('data', (c: Buffer) => (out += c.toString()));
      // The instance logs JSON lines to stdout too; the example's own line is the one naming the observer.
      const startedLine = () => out.split('\n').find((line) => line.includes('"observer"'));
      while (startedLine() === undefined) {
        if (service.exitCode !== null) throw new Error(`the example exited:\n${(await exited).out}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      const started = JSON.parse(startedLine()!) as { observer: number; hook: string; hooks: number };
      expect(started.hooks).to.equal(1);
      expect(started.hook).to.match(/^[0-9a-f-]{36}$/);

      const chain = await run(
        NPX_CLI,
        ['--no', '--', 'stackhooks', 'example-chain', 'demo.tsv', '--blocks', '3'],
        project,
      );
      expect(chain.code, chain.out).to.equal(0);
      const replay = await run(
        NPX_CLI,
        ['--no', '--', 'stackhooks', 'replay', 'demo.tsv', '--to', `http://127.0.0.1:${started.observer}`],
        project,
      );
      expect(replay.code, replay.out).to.equal(0);
      await receiver.waitFor(3, 30_000);
      const uuids = receiver.received.map(
        (r) => (JSON.parse(r.body) as { chainhook: { uuid: string } }).chainhook.uuid,
      );
      expect(uuids).to.deep.equal([started.hook, started.hook, started.hook]);

      service.kill('SIGTERM');
      const { code: exitCode, out: all } = await exited;
      expect(exitCode, all).to.equal(0);
    } finally {
      service.kill('SIGKILL');
      await receiver.close();
    }
  });

  it('serves the dashboard at /dashboard/ with every file its page loads, started from node_modules with plain node', async () => {
    const server = spawn(
      process.execPath,
      [join(project, 'node_modules/stackhooks/dist/apps/cli/main.js'), 'serve'],
      {
        cwd: project,
        env: {
          ...process.env,
          STACKHOOKS_HOST: '127.0.0.1',
          STACKHOOKS_PORT: '0',
          STACKHOOKS_OBSERVER_PORT: '0',
          STACKHOOKS_METRICS_PORT: '0',
          STACKHOOKS_DATA_DIR: join(project, 'dashboard-data'),
          STACKHOOKS_API_KEY: 'package-test-key-0123456789',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const exited = collect(server);
    try {
      let out = '';
      server.stdout!.on('data', (c: Buffer) => (out += c.toString()));
      const listening = () =>
        out
          .split('\n')
          .filter((line) => line.includes('"api listening"'))
          .map((line) => JSON.parse(line) as { port: number })[0];
      while (listening() === undefined) {
        if (server.exitCode !== null) throw new Error(`the server exited:\n${(await exited).out}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      const base = `http://127.0.0.1:${listening()!.port}/dashboard/`;
      const page = await fetch(base);
      expect(page.status).to.equal(200);
      expect(page.headers.get('content-type')).to.match(/^text\/html/);
      const html = await page.text();
      // The page's own files, then every module the scripts import, as a browser would follow them.
      const wanted = [...html.matchAll(/(?:src|href)="([a-z-]+\.(?:js|css))"/g)].map((m) => m[1]);
      expect(wanted).to.include.members(['app.js', 'style.css']);
      const fetched = new Set<string>();
      while (wanted.length > 0) {
        const file = wanted.pop()!;
        if (fetched.has(file)) continue;
        fetched.add(file);
        const res = await fetch(new URL(file, base));
        expect(res.status, file).to.equal(200);
        const text = await res.text();
        if (file.endsWith('.js'))
          wanted.push(...[...text.matchAll(/from '\.\/([a-z-]+\.js)'/g)].map((m) => m[1]));
      }
      expect(fetched).to.include.keys('hook-page.js', 'backfills-panel.js', 'system-page.js');
      server.kill('SIGTERM');
      const { code, out: all } = await exited;
      expect(code, all).to.equal(0);
    } finally {
      server.kill('SIGKILL');
    }
  });

  it('type-checks a TypeScript consumer of the public types under tsc --strict, with no @types package of its own', async () => {
    await writeFile(join(project, 'consumer.ts'), CONSUMER_TS);
    await writeFile(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          noEmit: true,
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          target: 'ES2022',
        },
        files: ['consumer.ts'],
      }),
    );
    const result = await run(process.execPath, [TSC, '-p', '.'], project);
    expect(result.code, result.out).to.equal(0);
  });

  it('runs the docs/testing-harness.md example with plain node through stackhooks/testing', async () => {
    const code = await firstCodeBlock(join(ROOT, 'docs/testing-harness.md'), 'js');
    expect(code).to.include("from 'stackhooks/testing'");
    await writeFile(join(project, 'index-property.mjs'), code);
    const result = await run(process.execPath, ['index-property.mjs'], project);
    expect(result.code, result.out).to.equal(0);
    const summary = JSON.parse(result.out.trim().split('\n').pop()!) as {
      runs: number;
      matchedHooks: number;
    };
    expect(summary.runs).to.equal(200);
    // The pool makes matches common: a property over hooks that never match would prove nothing.
    expect(summary.matchedHooks).to.be.above(20);
  });
});
