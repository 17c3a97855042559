import { expect } from 'chai';
import { acquireIngestLock } from '../../../adapters/store-postgres/ingest-lock.js';
import { startTestServer, TEST_API_KEY, type TestServer } from '../../support/api-server.js';
import { NodePoster, eventually, transferChain } from '../../support/outage-drill.js';
import { dropSchema, freshSchemaUrl, postgresAvailable, TEST_DATABASE_URL } from '../../support/postgres.js';
import { send } from '../../support/raw-http.js';
import { startTcpProxy, type TcpProxy } from '../../support/tcp-proxy.js';

const names = (t: TestServer) => t.server.stackhooks.conditions.list().map((c) => c.name);

if (!(await postgresAvailable())) {
  describe('block processing on PostgreSQL', () => {
    it(`needs PostgreSQL at ${TEST_DATABASE_URL}, which did not answer (set STACKHOOKS_TEST_DATABASE_URL)`);
  });
} else {
  describe('block processing on PostgreSQL', function (this: Mocha.Suite) {
    this.timeout(60_000);
    const target = new URL(TEST_DATABASE_URL);
    let proxy: TcpProxy;
    let app: TestServer | undefined;
    let url: string;

    beforeEach(async () => {
      proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
      url = freshSchemaUrl('ingest');
    });

    afterEach(async () => {
      await proxy.mend();
      await app?.stop();
      app = undefined;
      await proxy.close();
      await dropSchema(url);
    });

    it('raises database_unreachable and ingest_inactive while the database is away, clears both on its return, and counts it', async () => {
      app = await startTestServer({ STACKHOOKS_DATABASE_URL: proxy.via(url) });
      const { server } = app;
      await eventually(() => server.blockProcessing?.active === true, 'block processing to start');
      await proxy.cut();
      await eventually(
        () => names(app!).includes('database_unreachable') && names(app!).includes('ingest_inactive'),
        'both conditions',
      );
      expect(server.blockProcessing?.active).to.equal(false);
      await proxy.mend();
      await eventually(() => names(app!).length === 0, 'the conditions to clear');
      await eventually(() => server.blockProcessing?.active === true, 'block processing to resume');
      expect(server.blockProcessing?.counters).to.include({ lockAcquisitions: 2, lockLosses: 1 });
      expect(server.stackhooks.database?.counters.outages).to.equal(1);
      expect(server.stackhooks.database?.reachable).to.equal(true);
    });

    it('processes, as the lock holder, the blocks a standby ingest process stores', async () => {
      const active = await startTestServer({ STACKHOOKS_DATABASE_URL: url, STACKHOOKS_ROLE: 'ingest' });
      try {
        await eventually(() => active.server.blockProcessing?.active === true, 'the first to take the lock');
        app = await startTestServer({ STACKHOOKS_DATABASE_URL: url, STACKHOOKS_ROLE: 'ingest' });
        const blocks = await transferChain(5);
        // The node posts to the standby only: the holder is never woken by an append of its own.
        await new NodePoster(() => app!.server.observerPort).post(blocks);
        expect(app.server.blockProcessing?.active).to.equal(false);
        await eventually(
          async () => (await active.server.stackhooks.ingest.archivedBlocks()) === 5,
          'the holder to process the standby’s blocks',
        );
      } finally {
        await active.stop();
      }
    });

    it('shows on the status route the entries waiting while another process holds the ingest lock', async () => {
      // Another ingest process, holding the lock and processing nothing.
      const other = await acquireIngestLock(url);
      try {
        app = await startTestServer({ STACKHOOKS_DATABASE_URL: url });
        const blocks = await transferChain(5);
        await new NodePoster(() => app!.server.observerPort).post(blocks);
        const waiting = (await send(app.baseUrl, 'GET', '/chainhooks/v1', { key: TEST_API_KEY })).body;
        expect(waiting.ingest).to.deep.include({ processed_entry: 0, entries_behind: 5 });
        expect(waiting.ingest.newest_entry.id).to.equal(5);
        expect(waiting.chain_tip).to.equal(null);
        // A standby behind a live holder is not a condition: the chain is the holder's to process.
        expect(waiting.conditions).to.deep.equal([]);
      } finally {
        await other.release();
      }
      await eventually(async () => {
        const status = (await send(app!.baseUrl, 'GET', '/chainhooks/v1')).body;
        return status.ingest.entries_behind === 0 && status.archived_blocks === 5;
      }, 'the backlog to be processed once the lock is free');
    });
  });
}
