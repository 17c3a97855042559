import { expect } from 'chai';
import { openDatabase } from '../../../adapters/store-postgres/database.js';
import { DatabaseStartError, type DatabaseWait } from '../../../adapters/store-postgres/wait-for-database.js';
import { freshSchemaUrl, postgresAvailable, TEST_DATABASE_URL } from '../../support/postgres.js';
import { startTcpProxy, type TcpProxy } from '../../support/tcp-proxy.js';

async function startError(promise: Promise<unknown>): Promise<DatabaseStartError> {
  const err = await promise.then(
    () => expect.fail('expected the open to fail'),
    (e: unknown) => e,
  );
  expect(err).to.be.instanceOf(DatabaseStartError);
  return err as DatabaseStartError;
}

if (!(await postgresAvailable())) {
  describe('openDatabase waiting for a late database', () => {
    it(`needs PostgreSQL at ${TEST_DATABASE_URL}, which did not answer (set STACKHOOKS_TEST_DATABASE_URL)`);
  });
} else {
  describe('openDatabase waiting for a late database', function (this: Mocha.Suite) {
    this.timeout(30_000);
    const target = new URL(TEST_DATABASE_URL);
    let proxy: TcpProxy;

    beforeEach(async () => {
      // Cut from the start: connecting is refused, as by a server that is not up yet.
      proxy = await startTcpProxy(
        { host: target.hostname, port: Number(target.port || 5432) },
        { open: false },
      );
    });

    afterEach(() => proxy.close());

    it('retries with back-off, telling each try, and opens once the database is up', async () => {
      const tries: DatabaseWait[] = [];
      setTimeout(() => void proxy.mend(), 2_000);
      const db = await openDatabase(proxy.via(freshSchemaUrl('late')), {
        waitMs: 20_000,
        onWaiting: (wait) => tries.push(wait),
      });
      try {
        expect((await db.pool.query('SELECT 1 AS one')).rows[0].one).to.equal(1);
        expect(tries.length).to.be.at.least(2);
        expect(tries.map((t) => t.attempt)).to.deep.equal(tries.map((_, i) => i + 1));
        expect(tries[1].retryInMs).to.be.greaterThan(tries[0].retryInMs);
        expect(tries[0].error).to.include('ECONNREFUSED');
      } finally {
        await db.close();
      }
    });

    it('gives up after the wait with a one-line error naming the address', async () => {
      const url = proxy.via(freshSchemaUrl('late'));
      const err = await startError(openDatabase(url, { waitMs: 1_500 }));
      expect(err.message).to.equal(
        `could not reach PostgreSQL at 127.0.0.1:${proxy.port}/test within 1.5 s: connect ECONNREFUSED 127.0.0.1:${proxy.port}`,
      );
      expect(err.waited).to.equal(true);
    });

    it('fails at the first refusal when told not to wait', async () => {
      const err = await startError(openDatabase(proxy.via(freshSchemaUrl('late'))));
      expect(err.message).to.match(
        /^could not reach PostgreSQL at 127\.0\.0\.1:\d+\/test: connect ECONNREFUSED/,
      );
    });

    it('does not wait when the server answers with a refusal waiting cannot fix', async () => {
      await proxy.mend();
      const url = new URL(proxy.via(freshSchemaUrl('late')));
      url.pathname = '/no_such_database_here';
      const tries: DatabaseWait[] = [];
      const err = await startError(
        openDatabase(url.toString(), { waitMs: 20_000, onWaiting: (w) => tries.push(w) }),
      );
      expect(tries).to.deep.equal([]);
      expect(err.waited).to.equal(false);
      expect(err.message).to.include('"no_such_database_here" does not exist');
      expect(err.message).to.not.include('\n');
    });
  });
}
