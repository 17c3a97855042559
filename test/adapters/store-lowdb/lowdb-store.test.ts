import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import type { StoreDocument } from '../../../adapters/store-lowdb/store-document.js';
import { CHANGE_JOURNAL_FILE_NAME } from '../../../adapters/store-lowdb/change-journal.js';
import {
  LowdbHookRepository,
  openLowdbStore,
  STORE_FILE_NAME,
  StoreFile,
} from '../../../adapters/store-lowdb/index.js';
import type { LowdbStore } from '../../../adapters/store-lowdb/index.js';
import { createHook, setEnabled } from '../../../core/hooks/lifecycle.js';
import type { StoredHook } from '../../../core/hooks/record.js';
import { CrashImages } from './crash-image.js';
import { runUntilKilled } from '../../support/kill-after-acks.js';
import { accountStoreContract } from '../../contracts/account-store.contract.js';
import { hookRepositoryContract } from '../../contracts/hook-repository.contract.js';

/** A fresh, empty data folder under the system's temp folder. */
async function tempDataDir(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'stackhooks-lowdb-'));
}

/** A store in a fresh folder, with reopen (close, then open the same folder), crash images and cleanup. */
async function openFresh(): Promise<{
  current: () => LowdbStore;
  reopen: () => Promise<LowdbStore>;
  crashes: CrashImages;
  cleanup: () => Promise<void>;
}> {
  const dir = await tempDataDir();
  let store = await openLowdbStore(dir);
  const crashes = new CrashImages(dir);
  return {
    current: () => store,
    reopen: async () => {
      await store.close();
      store = await openLowdbStore(dir);
      return store;
    },
    crashes,
    cleanup: async () => {
      await crashes.cleanup();
      await store.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

hookRepositoryContract('lowdb', async () => {
  const fresh = await openFresh();
  return {
    repo: fresh.current().hooks,
    reopen: async () => (await fresh.reopen()).hooks,
    crash: async () => (await fresh.crashes.crash()).hooks,
    crashWritingInsert: async (hook) => (await fresh.crashes.crashWritingInsert(hook)).hooks,
    cleanup: fresh.cleanup,
  };
});

accountStoreContract('lowdb', async () => {
  const fresh = await openFresh();
  return {
    store: fresh.current().accounts,
    reopen: async () => (await fresh.reopen()).accounts,
    cleanup: fresh.cleanup,
  };
});

function sampleHook(n: number): StoredHook {
  return createHook(
    'alice',
    randomUUID(),
    {
      name: `hook ${n}`,
      version: '1',
      chain: 'stacks',
      network: 'testnet',
      filters: {
        events: [{ type: 'contract_call', contract_identifier: 'SP000000000000000000002Q6VF78.pox-4' }],
      },
      action: { type: 'http_post', url: `https://example.com/${n % 3}` },
    },
    1_700_000_000_000 + n,
  );
}

function readDocument(dir: string): StoreDocument {
  return JSON.parse(readFileSync(join(dir, STORE_FILE_NAME), 'utf-8')) as StoreDocument;
}

describe('openLowdbStore', () => {
  let dir: string;

  beforeEach(async () => {
    dir = await tempDataDir();
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('creates a missing data folder and starts empty', async () => {
    const nested = join(dir, 'not', 'yet', 'there');
    const store = await openLowdbStore(nested);
    expect(await store.hooks.listAll()).to.deep.equal([]);
    expect(await store.hooks.insert(sampleHook(1), 10)).to.not.equal(undefined);
    await store.close();
    expect(readDocument(nested).hooks).to.have.length(1);
  });

  it('returns from insert a hook that shares the stored definition, so a listener holds it once', async () => {
    const store = await openLowdbStore(dir);
    const given = sampleHook(1);
    const inserted = await store.hooks.insert(given, 10);
    const [listed] = await store.hooks.listAll();
    await store.close();
    expect(inserted!.definition).to.equal(listed.definition);
    expect(inserted!.definition).to.not.equal(given.definition);
  });

  it('refuses a file that is not valid JSON, naming it, and leaves it untouched', async () => {
    const file = join(dir, STORE_FILE_NAME);
    const broken = '{ "version": 1, "hooks": [ {"uuid": ';
    await writeFile(file, broken);
    let error: Error | undefined;
    await openLowdbStore(dir).catch((err: Error) => (error = err));
    expect(error?.message).to.include(file).and.to.match(/JSON/);
    expect(await readFile(file, 'utf-8')).to.equal(broken);
  });

  it('refuses a JSON file that is not a stackhooks store, saying what is wrong', async () => {
    const file = join(dir, STORE_FILE_NAME);
    await writeFile(file, JSON.stringify({ version: 1, hooks: {}, keys: [], consumer_secrets: {} }));
    let error: Error | undefined;
    await openLowdbStore(dir).catch((err: Error) => (error = err));
    expect(error?.message).to.include(file).and.to.include('"hooks" is not an array');
  });

  it('reads a file written before the live stream fields as a stream at 0 with exact counters', async () => {
    const hook = setEnabled(sampleHook(1), true);
    const counted = {
      ...hook,
      status: { ...hook.status, status: 'streaming' as const, evaluated_block_count: 4 },
    };
    await writeFile(
      join(dir, STORE_FILE_NAME),
      JSON.stringify({ version: 1, hooks: [counted], keys: [], consumer_secrets: {} }),
    );
    const store = await openLowdbStore(dir);
    expect(await store.hooks.liveProgress()).to.deep.equal({
      evaluated: 0,
      last_height: null,
      last_at: null,
    });
    await store.hooks.recordLiveStep({ blocks: 1, height: 9, at: 90 }, [], () => undefined);
    expect((await store.hooks.get('alice', hook.uuid))!.status.evaluated_block_count).to.equal(5);
    await store.close();
  });

  it('refuses a live stream progress that is not one, saying so', async () => {
    const file = join(dir, STORE_FILE_NAME);
    const document = {
      version: 1,
      hooks: [],
      keys: [],
      consumer_secrets: {},
      live_stream: { evaluated: '3' },
    };
    await writeFile(file, JSON.stringify(document));
    let error: Error | undefined;
    await openLowdbStore(dir).catch((err: Error) => (error = err));
    expect(error?.message).to.include(file).and.to.include('"live_stream" is not a live stream progress');
  });

  it('resolves each insert only once a file on disk holds it', async () => {
    const store = await openLowdbStore(dir);
    const hooks = Array.from({ length: 50 }, (_, n) => sampleHook(n));
    const onDisk = (): string =>
      readFileSync(join(dir, STORE_FILE_NAME), 'utf-8') +
      readFileSync(join(dir, CHANGE_JOURNAL_FILE_NAME), 'utf-8');
    const seenOnDisk = await Promise.all(
      hooks.map((hook) => store.hooks.insert(hook, 1000).then(() => onDisk().includes(hook.uuid))),
    );
    expect(seenOnDisk.every(Boolean)).to.equal(true);
    await store.close();
  });

  it('writes a file holding every change of a burst of concurrent writes', async () => {
    const store = await openLowdbStore(dir);
    const hooks = Array.from({ length: 1000 }, (_, n) => sampleHook(n));
    await Promise.all(hooks.map((hook) => store.hooks.insert(hook, 1000)));
    await Promise.all(
      hooks.slice(0, 200).map((hook) =>
        store.hooks.update('alice', hook.uuid, (latest) => ({
          ...latest,
          status: { ...latest.status, occurrence_count: latest.status.occurrence_count + 1 },
        })),
      ),
    );
    await store.accounts.setConsumerSecret('alice', 'ab'.repeat(32));
    await store.close();

    const document = readDocument(dir);
    expect(document.version).to.equal(1);
    expect(document.hooks.map((hook) => hook.uuid)).to.deep.equal(hooks.map((hook) => hook.uuid));
    expect(document.hooks.filter((hook) => hook.status.occurrence_count === 1)).to.have.length(200);
    expect(document.consumer_secrets).to.deep.equal({ alice: 'ab'.repeat(32) });
  });

  it('carries the changes that arrive during a write in one next write', async () => {
    const file = await StoreFile.open(dir);
    const repo = new LowdbHookRepository(file);
    // Ten callers each inserting one hook after another: without coalescing, 1,000 writes.
    await Promise.all(
      Array.from({ length: 10 }, async (_, caller) => {
        for (let n = 0; n < 100; n++) await repo.insert(sampleHook(caller * 100 + n), 1000);
      }),
    );
    expect((await repo.listAll()).length).to.equal(1000);
    expect(file.writes).to.be.below(200);
    await file.close();
  });

  it('rejects a change whose write fails, and writes it with the next flush', async () => {
    const dataDir = join(dir, 'data');
    const store = await openLowdbStore(dataDir);
    await rm(dataDir, { recursive: true });
    let error: Error | undefined;
    const hook = sampleHook(1);
    await store.hooks.insert(hook, 10).catch((err: Error) => (error = err));
    expect(error?.message).to.include(dataDir);

    await mkdir(dataDir);
    await store.flush();
    const reopened = await openLowdbStore(dataDir);
    expect((await reopened.hooks.listAll()).map((stored) => stored.uuid)).to.deep.equal([hook.uuid]);
    await reopened.close();
    await store.close();
  });

  it('refuses changes after close, having written the earlier ones', async () => {
    const store = await openLowdbStore(dir);
    const pending = store.hooks.insert(sampleHook(1), 10);
    await store.close();
    expect(await pending).to.not.equal(undefined);
    let error: Error | undefined;
    await store.hooks.insert(sampleHook(2), 10).catch((err: Error) => (error = err));
    expect(error?.message).to.match(/closed/);
    expect(readDocument(dir).hooks).to.have.length(1);
  });
});

const CRASH_WRITER = fileURLToPath(new URL('./crash-writer.ts', import.meta.url));

/** Run the crash writer on `dir`, SIGKILL it soon after `acks` acknowledged inserts; every uuid it acked. */
function insertUntilKilled(dir: string, acks: number, compactAfterBytes: number): Promise<string[]> {
  return runUntilKilled(CRASH_WRITER, [dir, '8', String(compactAfterBytes)], acks);
}

describe('lowdb store crash safety', () => {
  let dir: string;

  before(async () => {
    dir = await tempDataDir();
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  for (const [round, compactAfterBytes] of [
    [1, 4 << 20],
    [2, 16_384],
    [3, 16_384],
  ]) {
    it(`keeps every acknowledged insert when the writer is killed mid-burst, compacting after ${compactAfterBytes} bytes (round ${round})`, async () => {
      const acked = await insertUntilKilled(dir, 300, compactAfterBytes);
      expect(acked.length).to.be.at.least(300);

      const store = await openLowdbStore(dir);
      const stored = new Set((await store.hooks.listAll()).map((hook) => hook.uuid));
      await store.close();
      expect(acked.filter((uuid) => !stored.has(uuid))).to.deep.equal([]);
    });
  }
});
