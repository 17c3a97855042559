import { expect } from 'chai';
import { openDatabase } from '../../../adapters/store-postgres/database.js';
import { PgEventLog } from '../../../adapters/store-postgres/pg-event-log.js';
import { openTestDatabase, postgresAvailable, TEST_DATABASE_URL } from '../../support/postgres.js';

type TestDatabase = Awaited<ReturnType<typeof openTestDatabase>>;

// Mocha decides what to register when the module loads, so the server is asked here, once.
if (!(await postgresAvailable())) {
  describe('PgEventLog', () => {
    it(`needs PostgreSQL at ${TEST_DATABASE_URL}, which did not answer (set STACKHOOKS_TEST_DATABASE_URL)`);
  });
} else {
  describe('PgEventLog', () => {
    let db: TestDatabase;
    let log: PgEventLog;

    beforeEach(async () => {
      db = await openTestDatabase('events');
      log = await PgEventLog.open(db);
    });

    afterEach(async () => {
      await log.close();
      await db.drop();
    });

    it('numbers entries 1, 2, 3 in arrival order and reads them back unchanged', async () => {
      const ids = await Promise.all([
        log.append('/new_block', '{"a":1}', 10),
        log.append('/new_burn_block', '{"b":"tab\\tand ünïcode ✓"}', 11),
        log.append('/new_block', '{"c":3}', 12),
      ]);
      expect(ids).to.deep.equal([1, 2, 3]);
      expect(log.lastId()).to.equal(3);
      expect(await log.readAfter(0, 10)).to.deep.equal([
        { id: 1, received_at: 10, path: '/new_block', body: '{"a":1}' },
        { id: 2, received_at: 11, path: '/new_burn_block', body: '{"b":"tab\\tand ünïcode ✓"}' },
        { id: 3, received_at: 12, path: '/new_block', body: '{"c":3}' },
      ]);
    });

    it('reads at most `limit` entries after the given id', async () => {
      for (let i = 1; i <= 5; i++) await log.append('/p', `{"n":${i}}`, i);
      expect((await log.readAfter(1, 2)).map((e) => e.id)).to.deep.equal([2, 3]);
      expect((await log.readAfter(4, 10)).map((e) => e.id)).to.deep.equal([5]);
      expect(await log.readAfter(5, 10)).to.deep.equal([]);
    });

    it('keeps the processed mark and its note, never moving the mark back', async () => {
      expect(await log.processedId()).to.equal(0);
      expect(await log.processedNote()).to.equal(undefined);
      await log.markProcessed(3, '{"line":3}');
      await log.markProcessed(2);
      expect(await log.processedId()).to.equal(3);
      expect(await log.processedNote()).to.equal('{"line":3}');
      await log.markProcessed(4, 'later');
      expect(await log.processedNote()).to.equal('later');
    });

    it('keeps entries, the last id and the processed mark for a new pool on the same schema', async () => {
      for (let i = 0; i < 4; i++) await log.append('/new_block', `{"n":${i}}`, i);
      await log.markProcessed(2, 'note');
      const other = await openDatabase(db.url);
      try {
        const again = await PgEventLog.open(other);
        expect(again.lastId()).to.equal(4);
        expect(await again.processedId()).to.equal(2);
        expect(await again.processedNote()).to.equal('note');
        expect(await again.append('/x', '{}', 9)).to.equal(5);
      } finally {
        await other.close();
      }
    });

    it('stores a 64 MB body byte for byte', async function () {
      this.timeout(60_000);
      // Each `é\t"` is 6 bytes once encoded as JSON.
      const body = JSON.stringify({ pad: 'é\t"'.repeat(Math.floor((64 * 1024 * 1024 - 16) / 6)) });
      expect(Buffer.byteLength(body)).to.be.within(63 * 1024 * 1024, 64 * 1024 * 1024);
      const id = await log.append('/new_block', body, 1);
      const [read] = await log.readAfter(id - 1, 1);
      expect(read.body === body, 'the body read back equals the body appended').to.equal(true);
    });

    it('never lets a reader skip an id while 8 appenders in separate transactions race', async function () {
      this.timeout(60_000);
      // Eight logs on one pool: each commits its own transactions, so their appends really interleave.
      const appenders = await Promise.all(Array.from({ length: 8 }, () => PgEventLog.open(db)));
      const reader = await openDatabase(db.url, { max: 1 });
      const readerLog = await PgEventLog.open(reader);
      const seen: number[] = [];
      let appending = true;
      const reading = (async () => {
        // Poll until the appenders are done and nothing is left: every id must follow the last one seen.
        for (;;) {
          const done = !appending;
          const batch = await readerLog.readAfter(seen.at(-1) ?? 0, 1000);
          seen.push(...batch.map((event) => event.id));
          if (done && batch.length === 0) return;
        }
      })();
      const acked = await Promise.all(
        appenders.map(async (appender, a) => {
          const ids: number[] = [];
          for (let i = 0; i < 50; i++) ids.push(await appender.append('/p', `{"a":${a},"i":${i}}`, i));
          return ids;
        }),
      );
      appending = false;
      await reading;
      await reader.close();
      expect(seen).to.deep.equal(Array.from({ length: 400 }, (_, i) => i + 1));
      expect(acked.flat().sort((x, y) => x - y)).to.deep.equal(seen);
      for (const ids of acked) expect(ids).to.deep.equal([...ids].sort((x, y) => x - y));
    });
  });
}
