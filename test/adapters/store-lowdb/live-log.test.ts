import { randomUUID } from 'node:crypto';
import { appendFile, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { openLowdbStore, STORE_FILE_NAME, type LowdbStore } from '../../../adapters/store-lowdb/index.js';
import { LIVE_JOURNAL_FILE_NAME } from '../../../adapters/store-lowdb/live-journal.js';
import { LIVE_LOG_FILE_NAME } from '../../../adapters/store-lowdb/live-log.js';
import type { StoreDocument } from '../../../adapters/store-lowdb/store-document.js';
import { countLiveStep, createHook } from '../../../core/hooks/lifecycle.js';
import type { StoredHook } from '../../../core/hooks/record.js';
import { sampleDefinition } from '../../support/definitions.js';
import { makeTempDir } from '../../support/temp-dir.js';
import { CrashImages } from './crash-image.js';
import { runUntilKilled } from '../../support/kill-after-acks.js';
import { liveCrashHookUuid } from './live-crash-hooks.js';

let created = 1_700_000_000_000;

/** An enabled hook of alice's. */
function liveHook(): StoredHook {
  const definition = sampleDefinition({
    name: `live log ${created}`,
    options: { enable_on_registration: true },
  }) as StoredHook['definition'];
  return createHook('alice', randomUUID(), definition, created++);
}

/** A live step of one block at `height` that gave each named hook a payload. */
async function stepAt(store: LowdbStore, height: number, hooks: readonly StoredHook[]): Promise<void> {
  await store.hooks.recordLiveStep(
    { blocks: 1, height, at: height * 10 },
    hooks.map((h) => h.uuid),
    (hook) => countLiveStep(hook, [height], height, height * 10_000),
  );
}

const occurrences = async (store: LowdbStore, hook: StoredHook) =>
  (await store.hooks.get('alice', hook.uuid))!.status.occurrence_count;

describe('lowdb live log', () => {
  let dir: string;
  let store: LowdbStore;
  let crashes: CrashImages;
  const logPath = () => join(dir, LIVE_LOG_FILE_NAME);
  const logLines = async () => (await readFile(logPath(), 'utf8')).split('\n').slice(0, -1);

  beforeEach(async () => {
    dir = await makeTempDir('stackhooks-live-log-');
    store = await openLowdbStore(dir);
    crashes = new CrashImages(dir);
  });
  afterEach(async () => {
    await crashes.cleanup();
    await store.close().catch(() => undefined);
    await rm(dir, { recursive: true, force: true });
  });

  it('appends one line per live step with the status of the hooks it wrote, not their definitions', async () => {
    const [hook, other] = [liveHook(), liveHook()];
    await store.hooks.insert(hook, 10);
    await store.hooks.insert(other, 10);
    const main = await readFile(join(dir, STORE_FILE_NAME), 'utf8');
    await stepAt(store, 1, [hook]);
    await stepAt(store, 2, [hook, other]);
    const lines = await logLines();
    expect(lines).to.have.length(2);
    expect(lines[1]).to.include(other.uuid);
    // A hook without a delivery state is a status row: its uuid, then the status's values in order.
    const row = (JSON.parse(lines[1]) as { statuses: unknown[][] }).statuses.find((r) => r[0] === other.uuid);
    expect(row?.at(-1), 'occurrence_count').to.equal(1);
    for (const line of lines) expect(line).to.not.include(hook.definition.name);
    expect(await readFile(join(dir, STORE_FILE_NAME), 'utf8')).to.equal(main);
  });

  it('keeps every acknowledged live step across a crash, a later step over an earlier one', async () => {
    const [hook, other] = [liveHook(), liveHook()];
    await store.hooks.insert(hook, 10);
    await store.hooks.insert(other, 10);
    await stepAt(store, 1, [hook, other]);
    await stepAt(store, 2, [hook]);
    await stepAt(store, 3, []);
    const crashed = await crashes.crash();
    expect(await crashed.hooks.liveProgress()).to.deep.equal({ evaluated: 3, last_height: 3, last_at: 30 });
    expect((await crashed.hooks.get('alice', hook.uuid))!.status).to.include({
      occurrence_count: 2,
      last_occurrence_block_height: 2,
      evaluated_block_count: 3,
    });
    expect(await occurrences(crashed, other)).to.equal(1);
    // It goes on from there, and a second crash keeps the steps of both runs.
    await stepAt(crashed, 4, [other]);
    const again = await crashes.crash();
    expect(await occurrences(again, other)).to.equal(2);
  });

  it('cuts off a torn last line at open, keeping the steps before it, and appends after them', async () => {
    const hook = liveHook();
    await store.hooks.insert(hook, 10);
    await stepAt(store, 1, [hook]);
    const [line] = await logLines();
    const crashed = await crashes.crashEdited((copy) =>
      appendFile(join(copy, LIVE_LOG_FILE_NAME), line.slice(0, line.length >> 1)),
    );
    expect(await occurrences(crashed, hook)).to.equal(1);
    await stepAt(crashed, 2, [hook]);
    expect(await occurrences(await crashes.crash(), hook)).to.equal(2);
  });

  it('rewrites itself as one snapshot line once grown past its bound, and keeps every step across a crash', async () => {
    await store.close();
    store = await openLowdbStore(dir, { liveLogRewriteBytes: 1_500 });
    const hooks = [liveHook(), liveHook(), liveHook()];
    for (const hook of hooks) await store.hooks.insert(hook, 10);
    // The first step writes all three; later ones the first always and the second every other
    // block, so the third is in each snapshot as the first step left it.
    for (let height = 1; height <= 12; height++)
      await stepAt(store, height, height === 1 ? hooks : hooks.slice(0, 1 + (height % 2 === 0 ? 1 : 0)));
    const lines = await logLines();
    expect(lines.length).to.be.below(12);
    expect((await stat(logPath())).size).to.be.below(3 * 1_500);
    const crashed = await crashes.crash();
    expect(await crashed.hooks.liveProgress()).to.include({ evaluated: 12, last_height: 12 });
    const shown = await Promise.all(hooks.map((h) => crashed.hooks.get('alice', h.uuid)));
    expect(shown.map((h) => h!.status.occurrence_count)).to.deep.equal([12, 7, 1]);
    expect(shown.map((h) => h!.status.evaluated_block_count)).to.deep.equal([12, 12, 12]);
  });

  it('keeps the delivery state a live step wrote across a crash, beside the hooks it wrote as status rows', async () => {
    const [resumed, plain] = [liveHook(), liveHook()];
    await store.hooks.insert(resumed, 10);
    await store.hooks.insert(plain, 10);
    const resuming = { from_block_height: 1, next_block_height: 3 };
    await store.hooks.recordLiveStep(
      { blocks: 1, height: 1, at: 10 },
      [resumed.uuid, plain.uuid],
      (latest) => {
        const counted = countLiveStep(latest, [1], 1, 10_000);
        return latest.uuid === resumed.uuid ? { ...counted, delivery: { resuming } } : counted;
      },
    );
    const crashed = await crashes.crash();
    const [after, other] = await Promise.all([resumed, plain].map((h) => crashed.hooks.get('alice', h.uuid)));
    expect(after!.delivery).to.deep.equal({ resuming });
    expect(after!.status.occurrence_count).to.equal(1);
    expect(other!.delivery).to.equal(undefined);
    expect(other!.status).to.deep.equal((await store.hooks.get('alice', plain.uuid))!.status);
  });

  it('stores a step made while its payloads were queued over a change that came in between', async () => {
    const hook = liveHook();
    await store.hooks.insert(hook, 10);
    let queued!: () => void;
    const after = new Promise<void>((resolve) => (queued = resolve));
    const step = store.hooks.recordLiveStep(
      { blocks: 1, height: 1, at: 10 },
      [hook.uuid],
      (latest) => countLiveStep(latest, [1], 1, 10_000),
      after,
    );
    await store.hooks.update('alice', hook.uuid, (latest) => ({
      ...latest,
      definition: { ...latest.definition, name: 'renamed meanwhile' },
    }));
    queued();
    const [written] = await step;
    expect(written.definition.name).to.equal('renamed meanwhile');
    const stored = (await (await crashes.crash()).hooks.get('alice', hook.uuid))!;
    expect(stored.definition.name).to.equal('renamed meanwhile');
    expect(stored.status.occurrence_count).to.equal(1);
  });

  it('keeps a definition a live step changed across a crash', async () => {
    const hook = liveHook();
    await store.hooks.insert(hook, 10);
    await store.hooks.recordLiveStep({ blocks: 1, height: 1, at: 10 }, [hook.uuid], (latest) => ({
      ...latest,
      definition: { ...latest.definition, name: 'renamed by a step' },
    }));
    const crashed = await crashes.crash();
    expect((await crashed.hooks.get('alice', hook.uuid))!.definition.name).to.equal('renamed by a step');
  });

  it('takes in the side file of an earlier version, moves its steps into the log and removes the file', async () => {
    const hook = liveHook();
    await store.hooks.insert(hook, 10);
    await store.close();
    const stepped = countLiveStep({ ...hook }, [7], 7, 70_000);
    const side = {
      version: 1,
      seq: 4,
      live_stream: { evaluated: 1, last_height: 7, last_at: 70 },
      hooks: [{ seq: 4, base: 1, hook: stepped }],
    };
    await writeFile(join(dir, LIVE_JOURNAL_FILE_NAME), JSON.stringify(side));
    store = await openLowdbStore(dir);
    expect(await occurrences(store, hook)).to.equal(1);
    expect(
      await stat(join(dir, LIVE_JOURNAL_FILE_NAME)).catch((e: NodeJS.ErrnoException) => e.code),
    ).to.equal('ENOENT');
    const crashed = await crashes.crash();
    expect(await occurrences(crashed, hook)).to.equal(1);
    expect(await crashed.hooks.liveProgress()).to.deep.equal(side.live_stream);
    const main = JSON.parse(await readFile(join(dir, STORE_FILE_NAME), 'utf8')) as StoreDocument;
    expect(main.live_seq ?? 0).to.be.below(4);
  });

  it('refuses a log with an unreadable line before readable ones, naming it, and leaves it untouched', async () => {
    const hook = liveHook();
    await store.hooks.insert(hook, 10);
    await stepAt(store, 1, [hook]);
    await stepAt(store, 2, [hook]);
    const lines = await logLines();
    const damaged = `${[lines[0].slice(0, 20), lines[1]].join('\n')}\n`;
    const error = await crashes
      .crashEdited((copy) => writeFile(join(copy, LIVE_LOG_FILE_NAME), damaged))
      .catch((err: Error) => err);
    expect(error).to.be.instanceOf(Error).with.property('message').that.includes(LIVE_LOG_FILE_NAME);
  });
});

const LIVE_CRASH_WRITER = fileURLToPath(new URL('./live-crash-writer.ts', import.meta.url));

/** Run the live crash writer on `dir`, SIGKILL it soon after `acks` acknowledged steps; the last height acked. */
async function stepUntilKilled(dir: string, acks: number, rewriteBytes: number): Promise<number> {
  return Number((await runUntilKilled(LIVE_CRASH_WRITER, [dir, String(rewriteBytes)], acks)).at(-1));
}

describe('lowdb live log crash safety', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await makeTempDir('stackhooks-live-crash-');
  });
  afterEach(async () => rm(dir, { recursive: true, force: true }));

  for (const rewriteBytes of [4 << 20, 1_500]) {
    it(`keeps every acknowledged live step when the writer is killed mid-stream, rewriting the log after ${rewriteBytes} bytes`, async function () {
      this.timeout(60_000);
      const acked = await stepUntilKilled(dir, 300, rewriteBytes);
      expect(acked).to.be.at.least(300);
      const store = await openLowdbStore(dir);
      try {
        // The step in flight at the kill may have reached the disk too, never more than that one.
        const { evaluated } = await store.hooks.liveProgress();
        expect(evaluated).to.be.oneOf([acked, acked + 1]);
        for (let i = 0; i < 20; i++) {
          const { status } = (await store.hooks.get('crash', liveCrashHookUuid(i)))!;
          expect(status.occurrence_count, `hook ${i}`).to.equal(Math.floor(evaluated / (i + 1)));
          expect(status.evaluated_block_count, `hook ${i}`).to.equal(evaluated);
        }
      } finally {
        await store.close();
      }
    });
  }
});
