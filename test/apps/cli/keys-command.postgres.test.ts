import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'chai';
import { openTestDatabase, postgresAvailable, TEST_DATABASE_URL } from '../../support/postgres.js';
import { send } from '../../support/raw-http.js';
import { runCli, spawnServer } from '../../support/server-process.js';
import { makeTempDir } from '../../support/temp-dir.js';

if (!(await postgresAvailable())) {
  describe('stackhooks keys on Postgres', () => {
    it(`needs PostgreSQL at ${TEST_DATABASE_URL}, which did not answer (set STACKHOOKS_TEST_DATABASE_URL)`);
  });
} else {
  describe('stackhooks keys on Postgres', function () {
    this.timeout(60_000);

    it('keeps the keys it makes in the database a server reads, not in a data folder', async () => {
      const dir = await makeTempDir();
      const db = await openTestDatabase('keys');
      const dataDir = join(dir, 'data');
      const env = { STACKHOOKS_DATABASE_URL: db.url, STACKHOOKS_DATA_DIR: dataDir };
      try {
        const created = await runCli(['keys', 'create', '--owner', 'alice'], env);
        expect(created.code, created.out).to.equal(0);
        const key = /\b(shk_[0-9a-f]{64})\b/.exec(created.out)![1];
        const { rows } = await db.pool.query<{ owner: string }>('SELECT owner FROM api_keys');
        expect(rows).to.deep.equal([{ owner: 'alice' }]);
        expect(existsSync(dataDir), 'a data folder was made').to.equal(false);

        const server = await spawnServer({ ...env, STACKHOOKS_API_KEY: 'bootstrap-key-0123456789' });
        try {
          expect((await send(server.baseUrl, 'GET', '/chainhooks/me', { key })).status).to.equal(200);
          const listed = await runCli(['keys', 'list'], env);
          const id = new RegExp(`(key_[0-9a-f]{16})\\talice\\t`).exec(listed.out)![1];
          const revoked = await runCli(['keys', 'revoke', id], env);
          expect(revoked.code, revoked.out).to.equal(0);
          expect((await send(server.baseUrl, 'GET', '/chainhooks/me', { key })).status).to.equal(401);
        } finally {
          server.child.kill('SIGTERM');
          await server.exited;
        }
      } finally {
        await db.drop();
        await rm(dir, { recursive: true, force: true });
      }
    });
  });
}
