import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'chai';
import { createHttpApi, type HttpApiOptions } from '../../../adapters/http-koa/index.js';
import { silentLogger } from '../../../adapters/system/index.js';
import { openEmbedded } from '../../support/live-stack.js';
import { makeTempDir } from '../../support/temp-dir.js';
import type { Stackhooks } from '../../../apps/server/container.js';

type Answer = { status: number; headers: Headers; text: string };

describe('the dashboard route', () => {
  let stackhooks: Stackhooks;
  let dataDir: string;
  let folder: string;

  before(async () => {
    dataDir = await makeTempDir();
    stackhooks = await openEmbedded(dataDir);
    folder = join(dataDir, 'dashboard');
    await mkdir(folder);
    await writeFile(join(folder, 'index.html'), '<!doctype html><title>dashboard</title>');
    await writeFile(join(folder, 'app.js'), 'export {};');
  });

  after(async () => {
    await stackhooks.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  async function get(dashboard: HttpApiOptions['dashboard'], path: string, method = 'GET'): Promise<Answer> {
    return getAll(dashboard, [path], method).then(([answer]) => answer);
  }

  // From one server, each path in turn, running each function between them when its turn comes.
  async function getAll(
    dashboard: HttpApiOptions['dashboard'],
    steps: (string | (() => void))[],
    method = 'GET',
  ): Promise<Answer[]> {
    const { app } = createHttpApi({
      registry: stackhooks.registry,
      keys: stackhooks.keys,
      secrets: stackhooks.secrets,
      evaluations: stackhooks.evaluations,
      backfills: stackhooks.backfills,
      deliveries: stackhooks.deliveryLog,
      logger: silentLogger,
      serverVersion: 'test',
      requestsPerMinute: 600,
      dashboard,
    });
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    const { port } = server.address() as { port: number };
    try {
      const answers: Answer[] = [];
      for (const step of steps) {
        if (typeof step === 'function') {
          step();
          continue;
        }
        const res = await fetch(`http://127.0.0.1:${port}${step}`, { method, redirect: 'manual' });
        answers.push({ status: res.status, headers: res.headers, text: await res.text() });
      }
      return answers;
    } finally {
      server.close();
    }
  }

  it('serves the page at /dashboard/ with a policy that loads only its own files', async () => {
    const answer = await get({ folder }, '/dashboard/');
    expect(answer.status).to.equal(200);
    expect(answer.headers.get('content-type')).to.equal('text/html; charset=utf-8');
    expect(answer.text).to.contain('<title>dashboard</title>');
    expect(answer.headers.get('content-security-policy')).to.contain("script-src 'self'");
    expect(answer.headers.get('content-security-policy')).to.contain("frame-ancestors 'none'");
  });

  it('serves its scripts as JavaScript', async () => {
    const answer = await get({ folder }, '/dashboard/app.js');
    expect(answer.status).to.equal(200);
    expect(answer.headers.get('content-type')).to.equal('text/javascript; charset=utf-8');
  });

  it('sends /dashboard to /dashboard/, where its relative file names resolve', async () => {
    const answer = await get({ folder }, '/dashboard');
    expect(answer.status).to.equal(302);
    expect(answer.headers.get('location')).to.equal('/dashboard/');
  });

  it('answers 404 for a file it does not have and for a name that would leave its folder', async () => {
    expect((await get({ folder }, '/dashboard/missing.js')).status).to.equal(404);
    expect((await get({ folder }, '/dashboard/..%2Fsecret.js')).status).to.equal(404);
    expect((await get({ folder }, '/dashboard/sub/app.js')).status).to.equal(404);
  });

  it('refuses methods other than GET and HEAD, naming the allowed ones', async () => {
    const answer = await get({ folder }, '/dashboard/', 'POST');
    expect(answer.status).to.equal(405);
    expect(answer.headers.get('allow')).to.equal('GET, HEAD');
  });

  it('says how to build the dashboard when its files were not built', async () => {
    const answer = await get({ folder: undefined }, '/dashboard/');
    expect(answer.status).to.equal(503);
    expect(JSON.parse(answer.text).message).to.contain('npm run build');
  });

  it('serves files built after it started, from a lookup that found none at first', async () => {
    let built = false;
    const lookup = () => (built ? folder : undefined);
    const finishBuild = () => {
      built = true;
    };
    const [before, after] = await getAll({ folder: lookup }, ['/dashboard/', finishBuild, '/dashboard/']);
    expect(before.status).to.equal(503);
    expect(after.status).to.equal(200);
    expect(after.text).to.contain('<title>dashboard</title>');
  });

  it('is not served when turned off', async () => {
    expect((await get(undefined, '/dashboard/')).status).to.equal(404);
  });
});
