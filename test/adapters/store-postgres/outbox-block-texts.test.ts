import { expect } from 'chai';
import { openPgOutbox } from '../../../adapters/store-postgres/pg-outbox.js';
import type { OutgoingPayload } from '../../../core/ports/delivery-queue.js';
import { T0, asDue, attemptAt, outgoing, sharingBlocks } from '../../contracts/delivery-queue.contract.js';
import { TEST_DATABASE_URL, openTestDatabase, postgresAvailable } from '../../support/postgres.js';

const none: ReadonlySet<string> = new Set();
const hooks = (count: number) => Array.from({ length: count }, (_, i) => `h${i}`);

if (!(await postgresAvailable())) {
  describe('PgOutbox block texts', () => {
    it(`need PostgreSQL at ${TEST_DATABASE_URL}, which does not answer (set STACKHOOKS_TEST_DATABASE_URL)`);
  });
} else {
  describe('PgOutbox block texts', () => {
    let db: Awaited<ReturnType<typeof openTestDatabase>>;
    beforeEach(async () => {
      db = await openTestDatabase('texts');
    });
    afterEach(() => db.drop());

    const count = async (table: string, where = 'true') =>
      (await db.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE ${where}`)).rows[0]
        .n;

    it('stores a block that the payloads of one enqueue share once, and sends each body byte for byte', async () => {
      const outbox = openPgOutbox(db);
      const payloads = sharingBlocks(hooks(50), 2);
      await outbox.enqueue(payloads);
      expect(await count('outbox_block_texts')).to.equal(2);
      const due = await outbox.due(T0, 100, none);
      expect(due).to.have.length(50);
      const sent = new Map(due.map(({ payload }) => [payload.id, payload]));
      for (const payload of payloads) {
        expect(sent.get(payload.id)).to.deep.equal(asDue(payload));
      }
    });

    it('keeps a body without blocks whole, with no text beside it', async () => {
      const outbox = openPgOutbox(db);
      const plain = outgoing('h1');
      const other = { ...outgoing('h2'), body: { note: 'another layout' } } as unknown as OutgoingPayload;
      await outbox.enqueue([plain, other]);
      expect(await count('outbox_block_texts')).to.equal(0);
      expect(await count('outbox_payloads', 'body_blocks IS NULL AND body IS NOT NULL')).to.equal(2);
      const due = await outbox.due(T0, 10, none);
      expect(due.map((d) => d.payload)).to.have.deep.members([plain, other].map(asDue));
    });

    it('forgets a block’s text once no payload refers to it, and not before', async () => {
      const outbox = openPgOutbox(db, { keepDeliveredBodiesMs: 0 });
      const [early, late] = [sharingBlocks(['h1', 'h2'], 1), sharingBlocks(['h1', 'h2'], 1)];
      await outbox.enqueue(early);
      await outbox.enqueue(late);
      for (const payload of early)
        await outbox.recordAttempt(payload.id, attemptAt(Date.now() - 1000, 200), { state: 'delivered' });
      await outbox.recordAttempt(late[0].id, attemptAt(Date.now() - 1000, 200), { state: 'delivered' });
      await outbox.prune(T0 - 1);
      // The early enqueue's text went with its bodies; the late one's stays for the payload still pending.
      expect(await count('outbox_block_texts')).to.equal(1);
      expect((await outbox.due(T0, 10, none)).map((d) => d.payload)).to.deep.equal([asDue(late[1])]);
      await outbox.recordAttempt(late[1].id, attemptAt(Date.now() - 1000, 200), { state: 'delivered' });
      await outbox.prune(T0 - 1);
      expect(await count('outbox_block_texts')).to.equal(0);
    });

    it('forgets the texts of a dropped hook’s payloads at the next prune', async () => {
      const outbox = openPgOutbox(db);
      await outbox.enqueue(sharingBlocks(['h1'], 3));
      await outbox.dropHook('h1');
      await outbox.prune(T0 - 1);
      expect(await count('outbox_block_texts')).to.equal(0);
    });
  });
}
