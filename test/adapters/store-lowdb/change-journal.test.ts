import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { copyFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'chai';
import {
  CHANGE_JOURNAL_FILE_NAME,
  openLowdbStore,
  STORE_FILE_NAME,
  type LowdbStore,
} from '../../../adapters/store-lowdb/index.js';
import type { StoreDocument } from '../../../adapters/store-lowdb/store-document.js';
import { countLiveStep, createHook, setEnabled } from '../../../core/hooks/lifecycle.js';
import type { StoredHook } from '../../../core/hooks/record.js';
import { sampleDefinition } from '../../support/definitions.js';
import { makeTempDir } from '../../support/temp-dir.js';

let created = 1_700_000_000_000;

function newHook(): StoredHook {
  const definition = sampleDefinition({
    options: { enable_on_registration: true },
  }) as StoredHook['definition'];
  return createHook('alice', randomUUID(), definition, created++);
}

const named = (name: string) => (hook: StoredHook) => ({ ...hook, definition: { ...hook.definition, name } });

describe('lowdb change journal', () => {
  let dir: string;
  const stores: LowdbStore[] = [];

  beforeEach(async () => {
    dir = await makeTempDir('stackhooks-change-journal-');
  });
  afterEach(async () => {
    for (const store of stores.splice(0)) await store.close().catch(() => undefined);
    await rm(dir, { recursive: true, force: true });
  });

  async function open(options: { compactAfterBytes?: number } = {}): Promise<LowdbStore> {
    const store = await openLowdbStore(dir, options);
    stores.push(store);
    return store;
  }

  const journalPath = () => join(dir, CHANGE_JOURNAL_FILE_NAME);
  const mainDocument = () => JSON.parse(readFileSync(join(dir, STORE_FILE_NAME), 'utf-8')) as StoreDocument;

  it('writes a registration to the journal only, leaving the main file as it was', async () => {
    const store = await open();
    const before = readFileSync(join(dir, STORE_FILE_NAME), 'utf-8');
    const hook = newHook();
    await store.hooks.insert(hook, 10);
    expect(readFileSync(join(dir, STORE_FILE_NAME), 'utf-8')).to.equal(before);
    expect(readFileSync(journalPath(), 'utf-8')).to.include(hook.uuid);
  });

  it('takes the journal into the main file at close, so the main file alone holds every change', async () => {
    const store = await open();
    const hooks = [newHook(), newHook()];
    for (const hook of hooks) await store.hooks.insert(hook, 10);
    await store.hooks.update('alice', hooks[0].uuid, named('renamed'));
    await store.accounts.setConsumerSecret('alice', 'ab'.repeat(32));
    await store.close();
    const main = mainDocument();
    expect(main.hooks.map((hook) => hook.definition.name)).to.deep.equal([
      'renamed',
      hooks[1].definition.name,
    ]);
    expect(main.consumer_secrets).to.deep.equal({ alice: 'ab'.repeat(32) });
    expect((await stat(journalPath())).size).to.equal(0);
  });

  it('compacts once the journal passes its size and keeps taking changes meanwhile', async () => {
    const store = await open({ compactAfterBytes: 4_096 });
    const hooks = Array.from({ length: 200 }, newHook);
    await Promise.all(hooks.map((hook) => store.hooks.insert(hook, 1_000)));
    await Promise.all(
      hooks.slice(0, 50).map((hook) => store.hooks.update('alice', hook.uuid, named('late'))),
    );
    await store.flush();
    expect(mainDocument().journal_seq).to.be.above(0);
    expect(mainDocument().hooks.length).to.be.above(0);
    // Lines the main file holds are cut from the journal: it holds far fewer than the 250 changes.
    expect(readFileSync(journalPath(), 'utf-8').split('\n').length).to.be.below(250);

    const images = await makeTempDir('stackhooks-change-journal-image-');
    for (const name of [STORE_FILE_NAME, CHANGE_JOURNAL_FILE_NAME]) {
      await copyFile(join(dir, name), join(images, name));
    }
    const image = await openLowdbStore(images);
    const listed = await image.hooks.list('alice', 0, 1_000);
    await image.close();
    await rm(images, { recursive: true, force: true });
    expect(listed.total).to.equal(200);
    expect(listed.results.filter((hook) => hook.definition.name === 'late')).to.have.length(50);
  });

  it('replays no line the main file already holds, as after a crash between compaction and cutting the journal', async () => {
    let store = await open();
    const hook = newHook();
    await store.hooks.insert(hook, 10);
    await store.hooks.update('alice', hook.uuid, named('first'));
    const stale = readFileSync(journalPath());
    await store.close();
    store = await open();
    await store.hooks.update('alice', hook.uuid, named('second'));
    await store.close();
    // The main file holds both renames; the journal is the one from before the first compaction.
    await writeFile(journalPath(), stale);
    store = await open();
    expect((await store.hooks.get('alice', hook.uuid))!.definition.name).to.equal('second');
  });

  it('orders a change and a live step of one hook as they happened when it replays both', async () => {
    let store = await open();
    const [changedLast, steppedLast] = [newHook(), newHook()];
    for (const hook of [changedLast, steppedLast]) await store.hooks.insert(hook, 10);
    await store.hooks.update('alice', steppedLast.uuid, named('before the step'));
    const step = (hook: StoredHook) => countLiveStep(hook, [5], 5, 50_000);
    await store.hooks.recordLiveStep(
      { blocks: 1, height: 5, at: 50 },
      [changedLast.uuid, steppedLast.uuid],
      step,
    );
    await store.hooks.update('alice', changedLast.uuid, (hook) => setEnabled(hook, false));
    // Dropped without closing, so both journals are replayed over the main file as first written.
    const files = await makeTempDir('stackhooks-change-journal-replay-');
    for (const name of await readdir(dir)) {
      if (!name.endsWith('.lock')) await copyFile(join(dir, name), join(files, name));
    }
    store = await openLowdbStore(files);
    const [changed, stepped] = await Promise.all([
      store.hooks.get('alice', changedLast.uuid),
      store.hooks.get('alice', steppedLast.uuid),
    ]);
    await store.close();
    await rm(files, { recursive: true, force: true });
    expect(changed!.status).to.include({ enabled: false, occurrence_count: 1 });
    expect(stepped!.definition.name).to.equal('before the step');
    expect(stepped!.status).to.include({ enabled: true, occurrence_count: 1, evaluated_block_count: 1 });
  });

  it('refuses a journal with an unreadable line before readable ones, naming it, and leaves it untouched', async () => {
    const store = await open();
    await store.hooks.insert(newHook(), 10);
    await store.hooks.insert(newHook(), 10);
    const lines = readFileSync(journalPath(), 'utf-8').split('\n');
    const damaged = [lines[0].slice(0, 20), ...lines.slice(1)].join('\n');
    stores.splice(0);
    await store.close();
    await writeFile(journalPath(), damaged);
    const error = await openLowdbStore(dir).catch((err: Error) => err);
    expect(error).to.be.instanceOf(Error).with.property('message').that.includes(journalPath());
    expect(readFileSync(journalPath(), 'utf-8')).to.equal(damaged);
  });
});
