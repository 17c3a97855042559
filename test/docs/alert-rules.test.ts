import { spawnSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { startTestServer } from '../support/api-server.js';
import { dropSchema, freshSchemaUrl, postgresAvailable } from '../support/postgres.js';
import { skipBecause } from '../support/skip-because.js';

const ALERTS = fileURLToPath(new URL('../../docs/alerts/', import.meta.url));

function promtool(...args: string[]): { code: number | null; out: string } {
  const run = spawnSync('promtool', args, { cwd: ALERTS, encoding: 'utf8' });
  if (run.error) throw new Error(`promtool is needed (Debian's prometheus package): ${run.error.message}`);
  return { code: run.status, out: `${run.stdout}${run.stderr}` };
}

describe('the alert rules in docs/alerts', function () {
  this.timeout(60_000);

  it('pass promtool check rules', () => {
    const { code, out } = promtool('check', 'rules', 'stackhooks.rules.yml');
    expect(code, out).to.equal(0);
  });

  it('fire on the series of their unit tests and stay quiet on healthy ones (promtool test rules)', () => {
    const { code, out } = promtool('test', 'rules', 'stackhooks.rules.test.yml');
    expect(code, out).to.equal(0);
  });

  it('name only metrics a running server exposes (on PostgreSQL, which adds the database figures)', async function () {
    if (!(await postgresAvailable()))
      skipBecause(this, 'no PostgreSQL answers (set STACKHOOKS_TEST_DATABASE_URL or start the local server)');
    const rules = await readFile(`${ALERTS}stackhooks.rules.yml`, 'utf8');
    const named = new Set(rules.match(/\bstackhooks_[a-z_]+/g));
    const url = freshSchemaUrl('alerts');
    const t = await startTestServer({ STACKHOOKS_DATABASE_URL: url });
    try {
      const text = await (await fetch(`http://127.0.0.1:${t.server.metricsPort}/metrics`)).text();
      const exposed = new Set([...text.matchAll(/^# TYPE (\S+) /gm)].map(([, name]) => name));
      expect([...named].filter((name) => !exposed.has(name))).to.deep.equal([]);
    } finally {
      await t.stop();
      await dropSchema(url);
    }
  });
});
