import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'chai';
import { sampleDefinition } from '../../support/definitions.js';
import { TEST_API_KEY } from '../../support/api-server.js';
import { makeTempDir } from '../../support/temp-dir.js';
import { spawnServer } from '../../support/server-process.js';
import { send } from '../../support/raw-http.js';

const key = TEST_API_KEY;

/** Everything the writers saw acknowledged, and what may have been applied without an answer. */
type Ledger = { created: Set<string>; lastName: Map<string, string>; inFlightName: Map<string, string> };

async function writer(baseUrl: string, ledger: Ledger, worker: number, stop: () => boolean): Promise<void> {
  try {
    for (let round = 0; !stop(); round++) {
      const res = await send(baseUrl, 'POST', '/chainhooks/me', {
        key,
        body: JSON.stringify(sampleDefinition({ name: `w${worker}-r${round}` })),
      });
      if (res.status !== 200) throw new Error(`register answered ${res.status}`);
      const uuid: string = res.body.uuid;
      ledger.created.add(uuid);
      ledger.lastName.set(uuid, `w${worker}-r${round}`);
      for (let edit = 0; edit < 3 && !stop(); edit++) {
        const name = `w${worker}-r${round}-e${edit}`;
        ledger.inFlightName.set(uuid, name);
        const patched = await send(baseUrl, 'PATCH', `/chainhooks/me/${uuid}`, {
          key,
          body: JSON.stringify({ name }),
        });
        if (patched.status !== 200) throw new Error(`update answered ${patched.status}`);
        ledger.lastName.set(uuid, name);
      }
    }
  } catch {
    // The kill cuts requests off mid-flight; only acknowledged writes are in the ledger.
  }
}

async function allHooks(baseUrl: string): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  for (let offset = 0; ; offset += 60) {
    const page = await send(baseUrl, 'GET', `/chainhooks/me?offset=${offset}&limit=60`, { key });
    for (const hook of page.body.results) names.set(hook.uuid, hook.definition.name);
    if (offset + 60 >= page.body.total) return names;
  }
}

describe('persistence across a SIGKILL', function () {
  this.timeout(120_000);

  for (let round = 1; round <= 2; round++) {
    it(`keeps every acknowledged write when the server is killed during a burst (round ${round})`, async () => {
      const dataDir = await makeTempDir();
      const env = {
        STACKHOOKS_DATA_DIR: dataDir,
        STACKHOOKS_API_KEY: key,
        STACKHOOKS_MAX_HOOKS_PER_OWNER: '100000',
        STACKHOOKS_RATE_LIMIT_PER_MINUTE: '1000000',
      };
      const first = await spawnServer(env);
      const ledger: Ledger = { created: new Set(), lastName: new Map(), inFlightName: new Map() };
      let killed = false;
      let running = 16;
      const writers = Array.from({ length: 16 }, (_, i) =>
        writer(first.baseUrl, ledger, i, () => killed).finally(() => running--),
      );
      while (ledger.created.size < 150 + round * 50 && running > 0)
        await new Promise((r) => setTimeout(r, 5));
      expect(running, 'every writer was still writing when the kill came').to.equal(16);
      first.child.kill('SIGKILL');
      killed = true;
      await first.exited;
      await Promise.all(writers);

      JSON.parse(await readFile(join(dataDir, 'stackhooks.json'), 'utf8'));
      const second = await spawnServer(env);
      try {
        const stored = await allHooks(second.baseUrl);
        for (const uuid of ledger.created) {
          expect(stored.has(uuid), `acknowledged hook ${uuid} survives`).to.equal(true);
          const name = stored.get(uuid);
          expect([ledger.lastName.get(uuid), ledger.inFlightName.get(uuid)]).to.include(name);
        }
      } finally {
        second.child.kill('SIGTERM');
        await second.exited;
        await rm(dataDir, { recursive: true, force: true });
      }
    });
  }
});

describe('shutdown on SIGTERM', function () {
  this.timeout(60_000);

  it('finishes the requests in flight, flushes every write and exits 0', async () => {
    const dataDir = await makeTempDir();
    const env = { STACKHOOKS_DATA_DIR: dataDir, STACKHOOKS_API_KEY: key };
    const server = await spawnServer(env);
    const answers = Array.from({ length: 40 }, (_, i) =>
      send(server.baseUrl, 'POST', '/chainhooks/me', {
        key,
        body: JSON.stringify(sampleDefinition({ name: `drain-${i}` })),
      }).catch(() => undefined),
    );
    await new Promise((r) => setTimeout(r, 20));
    server.child.kill('SIGTERM');
    const results = await Promise.all(answers);
    expect(await server.exited).to.equal(0);
    expect(server.output()).to.include('"msg":"stopped"');
    const acked = results.filter((r) => r?.status === 200).map((r) => r!.body.uuid as string);
    expect(results.every((r) => r === undefined || r.status === 200)).to.equal(true);

    const file = JSON.parse(await readFile(join(dataDir, 'stackhooks.json'), 'utf8')) as {
      hooks: { uuid: string }[];
    };
    const stored = new Set(file.hooks.map((h) => h.uuid));
    for (const uuid of acked) expect(stored.has(uuid)).to.equal(true);
    await rm(dataDir, { recursive: true, force: true });
  });
});
