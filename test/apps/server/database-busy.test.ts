import { expect } from 'chai';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { ARCHIVE_LOCK } from '../../../adapters/store-postgres/pg-block-store.js';
import { TEST_API_KEY } from '../../support/api-server.js';
import { ChainBuilder, addressOf, stxTransfer, TEST_KEYS } from '../../support/block-builder.js';
import { dropSchema, freshSchemaUrl, postgresAvailable, TEST_DATABASE_URL } from '../../support/postgres.js';
import { send } from '../../support/raw-http.js';
import { freePort, postNewBlocks, spawnServer, type ServerProcess } from '../../support/server-process.js';
import { makeTempDir } from '../../support/temp-dir.js';

const available = await postgresAvailable();

if (!available) {
  describe('a statement PostgreSQL could not complete', () => {
    it('is skipped because PostgreSQL is not reachable (set STACKHOOKS_TEST_DATABASE_URL)');
  });
}

/** The backend of `schema`'s pool that waits for the archive's write lock, once one does. */
async function backendWaitingForArchive(admin: pg.Client, schema: string): Promise<number> {
  for (const deadline = Date.now() + 20_000; Date.now() < deadline; await sleep(50)) {
    const { rows } = await admin.query<{ pid: number }>(
      `SELECT pid FROM pg_stat_activity
       WHERE application_name = $1 AND wait_event_type = 'Lock' AND query LIKE '%pg_advisory_xact_lock%'`,
      [`stackhooks ${schema}`],
    );
    if (rows.length > 0) return rows[0].pid;
  }
  throw new Error('no archive write came to wait for its lock');
}

(available ? describe : () => undefined)(
  'a statement PostgreSQL could not complete',
  function (this: Mocha.Suite) {
    this.timeout(120_000);

    it('archives a block whose archive write the server cancelled once, quarantining nothing', async () => {
      const url = freshSchemaUrl('busy');
      const schema = new URL(url).searchParams.get('schema')!;
      const observerPort = String(await freePort());
      const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
      let app: ServerProcess | undefined;
      try {
        app = await spawnServer({
          STACKHOOKS_DATABASE_URL: url,
          STACKHOOKS_DATA_DIR: await makeTempDir(),
          STACKHOOKS_API_KEY: TEST_API_KEY,
          STACKHOOKS_OBSERVER_PORT: observerPort,
        });
        const chain = new ChainBuilder();
        const tx = await stxTransfer({ recipient: addressOf(TEST_KEYS.bob), amount: 1n });
        const blocks = Array.from({ length: 12 }, () => chain.next({ transactions: [tx] }));
        await postNewBlocks(observerPort, blocks.slice(0, 5));
        await admin.connect();
        // The next block's archive write waits for the archive's lock held here; then the server
        // cancels that statement (57014), as a statement timeout or an administrator would.
        await admin.query('SELECT pg_advisory_lock($1, hashtext($2))', [ARCHIVE_LOCK, schema]);
        await postNewBlocks(observerPort, blocks.slice(5, 6));
        await admin.query('SELECT pg_cancel_backend($1)', [await backendWaitingForArchive(admin, schema)]);
        await admin.query('SELECT pg_advisory_unlock($1, hashtext($2))', [ARCHIVE_LOCK, schema]);
        await postNewBlocks(observerPort, blocks.slice(6));

        let status = (await send(app.baseUrl, 'GET', '/chainhooks/v1')).body;
        for (const deadline = Date.now() + 30_000; Date.now() < deadline; await sleep(200)) {
          status = (await send(app.baseUrl, 'GET', '/chainhooks/v1')).body;
          if (status.archived_blocks === blocks.length && status.ingest.entries_behind === 0) break;
        }
        const story = `status ${JSON.stringify(status)}\n${app.output().slice(-4000)}`;
        expect(status.archived_blocks, story).to.equal(blocks.length);
        expect(status.chain.quarantined_bodies, story).to.equal(0);
        expect(status.chain.open_gaps, story).to.equal(0);
        expect(status.chain_tip.block_height).to.equal(blocks.at(-1)!.block_height);
        expect(app.output()).to.include('"msg":"block processing failed; retrying"');
        expect(app.output()).to.include('the database could not complete the request now');
      } finally {
        await admin.end().catch(() => undefined);
        if (app && app.child.exitCode === null) app.child.kill('SIGTERM');
        await app?.exited;
        await dropSchema(url);
      }
    });
  },
);
