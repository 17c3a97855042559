import { expect } from 'chai';
import { openDatabase, PgHookRepository, type Database } from '../../../adapters/store-postgres/index.js';
import { countLiveStep } from '../../../core/hooks/lifecycle.js';
import type { StoredHook } from '../../../core/hooks/record.js';
import { countOccurrence, newHook } from '../../contracts/hook-repository-fixtures.js';
import { openTestDatabase, postgresAvailable, TEST_DATABASE_URL } from '../../support/postgres.js';

const NOW_MS = 1_700_000_500_000;

/** A live step's change for a hook sent a payload in a block at `height`, as the live stream makes it. */
function sentAt(height: number) {
  return (hook: StoredHook) => countLiveStep(hook, [height], height, NOW_MS);
}

/** A live step of one block at `height`, at the time `sentAt` counts the occurrence at. */
function block(height: number) {
  return { blocks: 1, height, at: NOW_MS / 1000 };
}

/** An enabled hook, as the live stream matches it. */
function liveHook(owner = 'alice', options: StoredHook['definition']['options'] = {}): StoredHook {
  const hook = newHook(owner);
  return {
    ...hook,
    definition: { ...hook.definition, options },
    status: { ...hook.status, enabled: true },
  };
}

/** The hook's row and its counted occurrences as stored, read past the repository. */
async function storedRow(db: Database, uuid: string) {
  const { rows } = await db.pool.query<{
    status: StoredHook['status'];
    live_base: string;
    counted: string | null;
  }>(
    `SELECT status, live_base, (SELECT occurrence_count FROM hook_occurrences o WHERE o.uuid = h.uuid) AS counted
     FROM hooks h WHERE uuid = $1`,
    [uuid],
  );
  return rows[0];
}

/** A live hook stored, and counted by a step of block 1, so the repository holds its rows as that step left them. */
async function steppedHook(repo: PgHookRepository): Promise<StoredHook> {
  const hook = liveHook();
  await repo.insert(hook, 10);
  await repo.recordLiveStep(block(1), [hook.uuid], sentAt(1));
  return hook;
}

/** Run `work` with a repository of a second process on the same database, closed after. */
async function withSecondProcess(
  url: string,
  work: (second: PgHookRepository) => Promise<void>,
): Promise<void> {
  const other = await openDatabase(url);
  try {
    await work(new PgHookRepository(other));
  } finally {
    await other.close();
  }
}

if (!(await postgresAvailable())) {
  describe('Postgres live step writes', () => {
    it(`need PostgreSQL at ${TEST_DATABASE_URL}, which did not answer (set STACKHOOKS_TEST_DATABASE_URL)`);
  });
} else {
  describe('Postgres live step writes', () => {
    let db: Awaited<ReturnType<typeof openTestDatabase>>;
    let repo: PgHookRepository;

    beforeEach(async () => {
      db = await openTestDatabase('live');
      repo = new PgHookRepository(db);
    });
    afterEach(() => db.drop());

    it('counts an occurrence beside the hook’s row and leaves the row as it was', async () => {
      const hook = liveHook();
      await repo.insert(hook, 10);
      const [written] = await repo.recordLiveStep(
        { blocks: 1, height: 7, at: NOW_MS / 1000 },
        [hook.uuid],
        sentAt(7),
      );
      const row = await storedRow(db, hook.uuid);
      expect(row).to.deep.include({ status: hook.status, live_base: '0', counted: '1' });
      const shown = (await repo.get('alice', hook.uuid))!;
      expect(shown).to.deep.equal(written);
      expect(shown.status).to.include({
        status: 'streaming',
        evaluated_block_count: 1,
        last_evaluated_block_height: 7,
        occurrence_count: 1,
        last_occurrence_block_height: 7,
        last_occurrence_at: NOW_MS / 1000,
      });
    });

    it('locks neither the live stream nor a step’s hooks while its payloads are being queued', async () => {
      const hook = liveHook();
      await repo.insert(hook, 10);
      let queue: () => void = () => undefined;
      const queued = new Promise<void>((resolve) => (queue = resolve));
      let read = false;
      const recording = repo.recordLiveStep(
        { blocks: 1, height: 7, at: NOW_MS / 1000 },
        [hook.uuid],
        (latest) => {
          read = true;
          return sentAt(7)(latest);
        },
        queued,
      );
      // Time enough for a step that reads early to have taken its locks.
      await new Promise((resolve) => setTimeout(resolve, 200));
      await db.transaction(async (client) => {
        await client.query("SET LOCAL lock_timeout = '1s'");
        await client.query('SELECT 1 FROM live_stream FOR UPDATE');
        await client.query('SELECT 1 FROM hooks WHERE uuid = $1 FOR UPDATE', [hook.uuid]);
      });
      expect(read).to.equal(false);
      expect((await repo.liveProgress()).evaluated).to.equal(0);
      queue();
      await recording;
      expect((await repo.liveProgress()).evaluated).to.equal(1);
      expect((await storedRow(db, hook.uuid)).counted).to.equal('1');
    });

    it('folds counted occurrences back into the hook when the hook is written whole, and counts on from there', async () => {
      const hook = liveHook();
      await repo.insert(hook, 10);
      await repo.recordLiveStep({ blocks: 1, height: 7, at: 1 }, [hook.uuid], sentAt(7));
      await repo.update('alice', hook.uuid, (latest) => ({
        ...latest,
        status: { ...latest.status, enabled: false },
      }));
      expect(await storedRow(db, hook.uuid)).to.deep.include({ counted: null });
      expect((await storedRow(db, hook.uuid)).status.occurrence_count).to.equal(1);
      await repo.recordLiveStep({ blocks: 0, height: 0, at: 1 }, [hook.uuid], countOccurrence);
      expect((await repo.get('alice', hook.uuid))!.status).to.include({
        occurrence_count: 2,
        enabled: false,
      });
    });

    it('writes the whole hook when a step does more than count an occurrence', async () => {
      const hook = liveHook('alice', { expire_after_occurrences: 1 });
      await repo.insert(hook, 10);
      const [written] = await repo.recordLiveStep({ blocks: 1, height: 9, at: 1 }, [hook.uuid], sentAt(9));
      expect(written.status).to.include({ status: 'expired', enabled: false, occurrence_count: 1 });
      const row = await storedRow(db, hook.uuid);
      expect(row.status).to.include({ status: 'expired', enabled: false, occurrence_count: 1 });
      expect(row).to.deep.include({ live_base: '1', counted: null });
      expect(await repo.get('alice', hook.uuid)).to.deep.equal(written);
    });

    it('keeps every occurrence when live steps and updates from two processes interleave', async () => {
      await withSecondProcess(db.url, async (second) => {
        const hook = liveHook();
        await repo.insert(hook, 10);
        await Promise.all(
          Array.from({ length: 40 }, (_, i) =>
            i % 2
              ? repo.update('alice', hook.uuid, countOccurrence)
              : second.recordLiveStep({ blocks: 1, height: i, at: 1 }, [hook.uuid], sentAt(i)),
          ),
        );
        expect((await repo.get('alice', hook.uuid))!.status).to.include({
          occurrence_count: 40,
          evaluated_block_count: 20,
        });
      });
    });

    it('gives a step the definition another process wrote since the last step read it', async () => {
      await withSecondProcess(db.url, async (second) => {
        const hook = liveHook();
        await repo.insert(hook, 10);
        const seen: string[] = [];
        const recordName = (latest: StoredHook) => (
          seen.push(latest.definition.name),
          countOccurrence(latest)
        );
        await repo.recordLiveStep({ blocks: 1, height: 1, at: 1 }, [hook.uuid], recordName);
        await second.update('alice', hook.uuid, (latest) => ({
          ...latest,
          definition: { ...latest.definition, name: 'renamed' },
        }));
        await repo.recordLiveStep({ blocks: 1, height: 2, at: 1 }, [hook.uuid], recordName);
        await repo.recordLiveStep({ blocks: 1, height: 3, at: 1 }, [hook.uuid], recordName);
        expect(seen).to.deep.equal([hook.definition.name, 'renamed', 'renamed']);
        expect((await repo.get('alice', hook.uuid))!.definition.name).to.equal('renamed');
      });
    });

    it('counts on from the occurrences another process’s step wrote since its own last step', async () => {
      await withSecondProcess(db.url, async (second) => {
        const hook = await steppedHook(repo);
        await second.recordLiveStep(block(2), [hook.uuid], sentAt(2));
        await repo.recordLiveStep(block(3), [hook.uuid], sentAt(3));
        expect((await repo.get('alice', hook.uuid))!.status).to.include({
          occurrence_count: 3,
          evaluated_block_count: 3,
        });
      });
    });

    it('sees a hook another process disabled since its own last step', async () => {
      await withSecondProcess(db.url, async (second) => {
        const hook = await steppedHook(repo);
        await second.update('alice', hook.uuid, (latest) => ({
          ...latest,
          status: { ...latest.status, enabled: false },
        }));
        const changed = await repo.recordLiveStep(block(2), [hook.uuid], sentAt(2));
        expect(changed[0].status).to.include({ enabled: false, occurrence_count: 1 });
        expect((await repo.get('alice', hook.uuid))!.status).to.include({
          enabled: false,
          occurrence_count: 1,
        });
      });
    });

    it('reads a hook again whose row was written past the repository, its occurrences left as they were', async () => {
      const hook = await steppedHook(repo);
      await db.pool.query(
        `UPDATE hooks SET status = jsonb_set(status, '{enabled}', 'false') WHERE uuid = $1`,
        [hook.uuid],
      );
      await repo.recordLiveStep(block(2), [hook.uuid], sentAt(2));
      expect((await repo.get('alice', hook.uuid))!.status).to.include({
        enabled: false,
        occurrence_count: 1,
      });
    });

    it('hands a step hooks it may edit without changing what the next step is given', async () => {
      const hook = liveHook();
      await repo.insert(hook, 10);
      const edit = (latest: StoredHook) => {
        latest.status.occurrence_count = 99;
        latest.status.enabled = false;
        return undefined;
      };
      // Steps of no block, so the hook is given as its row holds it, and then as kept from that read.
      await repo.recordLiveStep({ blocks: 0, height: 0, at: 1 }, [hook.uuid], edit);
      await repo.recordLiveStep({ blocks: 0, height: 0, at: 1 }, [hook.uuid], edit);
      await repo.recordLiveStep(block(1), [hook.uuid], sentAt(1));
      expect((await repo.get('alice', hook.uuid))!.status).to.include({ enabled: true, occurrence_count: 1 });
    });

    it('counts from what was committed after a step whose transaction rolled back', async () => {
      let failCommit = false;
      const failing: Database = {
        ...db,
        transaction: (work) =>
          db.transaction(async (client) => {
            const result = await work(client);
            if (failCommit) throw new Error('the commit was lost');
            return result;
          }),
      };
      const steps = new PgHookRepository(failing);
      const hook = liveHook();
      await steps.insert(hook, 10);
      await steps.recordLiveStep(block(1), [hook.uuid], sentAt(1));
      failCommit = true;
      const lost = await steps.recordLiveStep(block(2), [hook.uuid], sentAt(2)).then(
        () => undefined,
        (err: Error) => err.message,
      );
      expect(lost).to.equal('the commit was lost');
      failCommit = false;
      await steps.recordLiveStep(block(2), [hook.uuid], sentAt(2));
      expect((await steps.get('alice', hook.uuid))!.status).to.include({
        occurrence_count: 2,
        evaluated_block_count: 2,
      });
    });

    it('reads only the row versions of hooks whose rows the step before read or wrote', async () => {
      const statements: string[] = [];
      const watched: Database = {
        ...db,
        transaction: (work) =>
          db.transaction((client) => {
            const query = client.query.bind(client) as (text: string, values?: unknown[]) => unknown;
            const recording = (text: string, values?: unknown[]) => (
              statements.push(text),
              query(text, values)
            );
            return work(Object.assign(Object.create(client), { query: recording }) as typeof client);
          }),
      };
      const steps = new PgHookRepository(watched);
      const hooks = [liveHook(), liveHook()];
      for (const hook of hooks) await steps.insert(hook, 10);
      const uuids = hooks.map((hook) => hook.uuid);
      await steps.recordLiveStep(block(1), uuids, sentAt(1));
      const firstStep = statements.splice(0);
      await steps.recordLiveStep(block(2), uuids, sentAt(2));
      const readsState = (text: string) => /\bstatus\b/.test(text) && /^\s*SELECT/i.test(text);
      expect(firstStep.filter(readsState)).to.have.length(1);
      expect(statements.filter(readsState)).to.deep.equal([]);
      const shown = await steps.getByUuids(uuids);
      for (const hook of shown)
        expect(hook.status).to.include({ occurrence_count: 2, evaluated_block_count: 2 });
    });

    it('forgets a hook’s counted occurrences with the hook', async () => {
      const hook = liveHook();
      await repo.insert(hook, 10);
      await repo.recordLiveStep({ blocks: 0, height: 0, at: 1 }, [hook.uuid], countOccurrence);
      expect(await repo.delete('alice', hook.uuid)).to.equal(true);
      const { rows } = await db.pool.query('SELECT 1 FROM hook_occurrences');
      expect(rows).to.have.length(0);
    });

    it('shows counted occurrences in listings, bulk reads and the matcher’s full read', async () => {
      const [a, b] = [liveHook(), liveHook()];
      await repo.insert(a, 10);
      await repo.insert(b, 10);
      await repo.recordLiveStep({ blocks: 0, height: 0, at: 1 }, [b.uuid], countOccurrence);
      const countOf = (hooks: StoredHook[]) =>
        Object.fromEntries(hooks.map((h) => [h.uuid, h.status.occurrence_count]));
      const expected = { [a.uuid]: 0, [b.uuid]: 1 };
      expect(countOf((await repo.list('alice', 0, 10)).results)).to.deep.equal(expected);
      expect(countOf((await repo.list('alice', 0, 10, { status: 'new' })).results)).to.deep.equal(expected);
      expect(countOf(await repo.getByUuids([a.uuid, b.uuid]))).to.deep.equal(expected);
      expect(countOf(await repo.listAll())).to.deep.equal(expected);
      expect((await repo.getByUuid(b.uuid))!.status.occurrence_count).to.equal(1);
    });
  });
}
