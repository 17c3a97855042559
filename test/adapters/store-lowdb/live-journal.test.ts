import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'chai';
import { LIVE_JOURNAL_FILE_NAME } from '../../../adapters/store-lowdb/live-journal.js';
import { LowdbHookRepository, STORE_FILE_NAME, StoreFile } from '../../../adapters/store-lowdb/index.js';
import type { StoreDocument } from '../../../adapters/store-lowdb/store-document.js';
import { countLiveStep, createHook, setEnabled } from '../../../core/hooks/lifecycle.js';
import type { StoredHook } from '../../../core/hooks/record.js';
import { sampleDefinition } from '../../support/definitions.js';
import { makeTempDir } from '../../support/temp-dir.js';

let created = 1_700_000_000_000;

/** An enabled hook of alice's. */
function liveHook(): StoredHook {
  const definition = sampleDefinition({
    options: { enable_on_registration: true },
  }) as StoredHook['definition'];
  return createHook('alice', randomUUID(), definition, created++);
}

/** What a live step makes of a hook with a payload: its blocks evaluated, one occurrence. */
function counted(blocks: number, height: number): (hook: StoredHook) => StoredHook {
  return (hook) => countLiveStep(hook, Array<number>(blocks).fill(height), height, height * 10_000);
}

describe('lowdb live stream side file', () => {
  let dir: string;
  let file: StoreFile;
  let repo: LowdbHookRepository;

  beforeEach(async () => {
    dir = await makeTempDir();
    file = await StoreFile.open(dir);
    repo = new LowdbHookRepository(file);
  });
  afterEach(async () => {
    await file.close();
    await rm(dir, { recursive: true, force: true });
  });

  async function reopen(): Promise<LowdbHookRepository> {
    await file.close();
    file = await StoreFile.open(dir);
    repo = new LowdbHookRepository(file);
    return repo;
  }

  const mainDocument = () => JSON.parse(readFileSync(join(dir, STORE_FILE_NAME), 'utf-8')) as StoreDocument;

  it('writes a live step to the side file only, and keeps it across reopening', async () => {
    const [hook, other] = [liveHook(), liveHook()];
    await repo.insert(hook, 10);
    await repo.insert(other, 10);
    const writes = file.writes;
    await repo.recordLiveStep({ blocks: 2, height: 8, at: 80 }, [hook.uuid], counted(2, 8));
    expect(file.writes).to.equal(writes);
    expect(mainDocument().live_stream).to.deep.equal({ evaluated: 0, last_height: null, last_at: null });
    const reopened = await reopen();
    expect(await reopened.liveProgress()).to.deep.equal({ evaluated: 2, last_height: 8, last_at: 80 });
    expect((await reopened.get('alice', hook.uuid))!.status).to.include({
      evaluated_block_count: 2,
      occurrence_count: 1,
    });
    expect((await reopened.get('alice', other.uuid))!.status).to.include({
      evaluated_block_count: 2,
      occurrence_count: 0,
    });
  });

  it('lets a later change in the main file win over an earlier live step in the side file', async () => {
    const hook = liveHook();
    await repo.insert(hook, 10);
    await repo.recordLiveStep({ blocks: 1, height: 1, at: 10 }, [hook.uuid], counted(1, 1));
    // The side file still holds the step's enabled hook; the main file, written after, holds it disabled.
    await repo.update('alice', hook.uuid, (latest) => setEnabled(latest, false));
    const reopened = await reopen();
    expect((await reopened.get('alice', hook.uuid))!.status).to.include({
      enabled: false,
      evaluated_block_count: 1,
      occurrence_count: 1,
    });
    expect(await reopened.liveProgress()).to.deep.equal({ evaluated: 1, last_height: 1, last_at: 10 });
  });

  it('folds the side file into the main file once it holds more than 1,000 hooks', async () => {
    const hooks = Array.from({ length: 1_001 }, liveHook);
    await Promise.all(hooks.map((hook) => repo.insert(hook, 2_000)));
    await repo.recordLiveStep(
      { blocks: 0, height: 0, at: 0 },
      hooks.slice(0, 1_000).map((h) => h.uuid),
      counted(0, 0),
    );
    await file.flush();
    expect(mainDocument().live_seq).to.equal(0);
    await repo.recordLiveStep({ blocks: 1, height: 3, at: 30 }, [hooks[1_000].uuid], counted(1, 3));
    await file.flush();
    const main = mainDocument();
    expect(main.live_seq).to.equal(2);
    expect(main.live_stream).to.deep.equal({ evaluated: 1, last_height: 3, last_at: 30 });
    expect(main.hooks.every((hook) => hook.status.occurrence_count === 1)).to.equal(true);
  });

  it('refuses a side file of the wrong shape, saying what is wrong, and leaves it untouched', async () => {
    await file.close();
    const side = join(dir, LIVE_JOURNAL_FILE_NAME);
    const broken = JSON.stringify({ version: 1, seq: 3, live_stream: { evaluated: 1 }, hooks: [] });
    await writeFile(side, broken);
    const error = await StoreFile.open(dir).catch((err: Error) => err);
    expect(error)
      .to.be.instanceOf(Error)
      .with.property('message')
      .that.includes(side)
      .and.includes('"live_stream"');
    expect(readFileSync(side, 'utf-8')).to.equal(broken);
    file = await StoreFile.open(join(dir, 'elsewhere'));
  });

  it('refuses a side-file hook without a definition or status, as the main file refuses one', async () => {
    await repo.insert(liveHook(), 10);
    await file.close();
    const side = join(dir, LIVE_JOURNAL_FILE_NAME);
    const [stored] = mainDocument().hooks;
    const hook = { uuid: stored.uuid, owner: stored.owner, created_at_ms: stored.created_at_ms };
    const broken = JSON.stringify({
      version: 1,
      seq: 99,
      live_stream: { evaluated: 1, last_height: 3, last_at: 30 },
      hooks: [{ seq: 99, base: 1, hook }],
    });
    await writeFile(side, broken);
    const error = await StoreFile.open(dir).catch((err: Error) => err);
    expect(error).to.be.instanceOf(Error).with.property('message').that.includes('hooks[0].hook');
    expect(readFileSync(side, 'utf-8')).to.equal(broken);
    file = await StoreFile.open(join(dir, 'elsewhere'));
  });
});
