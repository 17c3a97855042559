import { spawn } from 'node:child_process';
import { appendFile, copyFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'chai';
import { asQueued, drain, outgoing } from '../../contracts/delivery-queue.contract.js';
import { journals, outboxFolderPerTest } from '../../support/outbox-folder.js';

const none: ReadonlySet<string> = new Set();

describe('FsOutbox crash recovery', () => {
  let dir: string;
  const open = outboxFolderPerTest((fresh) => (dir = fresh));

  it('cuts off a torn tail on open and appends after the last intact record', async () => {
    const [a, b, c] = [outgoing('h1'), outgoing('h1'), outgoing('h1')];
    const first = await open();
    await first.enqueue([a, b]);
    await first.close();
    const [journal] = await journals(dir);
    const intact = (await stat(join(dir, journal))).size;
    await appendFile(join(dir, journal), Buffer.from([200, 0, 0, 0, 1, 2, 3, 4, 123, 34]));
    const second = await open();
    expect((await stat(join(dir, journal))).size).to.equal(intact);
    await second.enqueue([c]);
    await second.close();
    // A zero-filled tail (space allocated, data never written) is torn too, not a run of empty records.
    await appendFile(join(dir, journal), Buffer.alloc(64));
    const third = await open();
    expect(await drain(third)).to.deep.equal([a.id, b.id, c.id]);
  });

  it('replays the newest generation and removes what a crash during compaction left behind', async () => {
    const outbox = await open();
    const p = outgoing('h1');
    await outbox.enqueue([p]);
    await outbox.close();
    await copyFile(join(dir, 'journal-000000000001.log'), join(dir, 'journal-000000000002.log'));
    await writeFile(join(dir, 'journal-000000000003.log.tmp'), 'half a snapshot');
    const again = await open();
    expect(await journals(dir)).to.deep.equal(['journal-000000000002.log']);
    expect(await drain(again)).to.deep.equal([p.id]);
  });

  // Twenty payloads an enqueue fill more than one framing buffer a flush, so buffers are written
  // before their flush when the writer is killed.
  for (const [window, perEnqueue] of [
    [32, 1],
    [2, 1],
    [2, 20],
  ]) {
    it(`keeps every acknowledged payload, in order per hook, when its writer (${window} pending in memory per hook, ${perEnqueue} an enqueue) is killed with SIGKILL`, async function () {
      this.timeout(60_000);
      // The same 120 rounds whatever an enqueue holds: some heads are retried, then delivered.
      const lines = await runAndKill(dir, 600 * perEnqueue, window, perEnqueue);
      const acked = lines.filter((l) => l.startsWith('E ')).map((l) => l.slice(2));
      const delivered = lines.filter((l) => l.startsWith('D ')).map((l) => l.slice(2));
      const retried = lines.filter((l) => l.startsWith('R ')).map((l) => l.slice(2));
      expect(acked.length).to.be.at.least(600);
      expect(delivered.length).to.be.greaterThan(0);
      expect(retried.length).to.be.greaterThan(0);
      const outbox = await open();
      const hookOf = (id: string) => `hook-${Number(id.slice(1)) % 50}`;
      for (const id of acked) expect(await outbox.get(hookOf(id), id), id).to.not.equal(undefined);
      for (const id of delivered) expect(await outbox.get(hookOf(id), id)).to.include({ state: 'delivered' });
      for (const id of retried) expect((await outbox.get(hookOf(id), id))?.attempts.length).to.be.at.least(1);
      // Every body after the restart is put back together from the records on disk.
      for (const { payload } of await outbox.due(1e15, 50, none))
        expect(asQueued(payload).body.event.apply[0].block_identifier.hash).to.equal(
          `0x${Math.floor(Number(payload.id.slice(1)) / (5 * perEnqueue))}`,
        );
      const sent = await drain(outbox);
      for (let h = 0; h < 50; h++) {
        const numbers = sent.filter((id) => hookOf(id) === `hook-${h}`).map((id) => Number(id.slice(1)));
        expect(numbers, `hook-${h}`).to.deep.equal([...numbers].sort((a, b) => a - b));
      }
      expect(new Set(sent).size).to.equal(sent.length);
    });
  }
});

// The writer: five hooks at a time enqueue concurrently (so fsyncs are shared), their bodies sharing
// a block as one chain event's payloads do; every few rounds it retries or delivers some heads.
// Each line is printed only once its call resolved.
const WRITER = `
  import { openFsOutbox } from './adapters/outbox/index.ts';
  const outbox = await openFsOutbox(process.argv[1], { pendingInMemoryPerHook: Number(process.argv[2]) });
  const per = Number(process.argv[3]);
  const say = (line) => process.stdout.write(line + '\\n');
  const payload = (i, block) => ({
    id: 'p' + i, hook_uuid: 'hook-' + (i % 50), owner: 'o', url: 'https://example.com', kind: 'live',
    apply: [{ index: i, hash: '0x' + i, tx_indexes: [0] }], rollback: [], created_at: 1000 + i,
    body: { chainhook: { uuid: 'hook-' + (i % 50), name: 'x'.repeat((i * 37) % 4000) },
            event: { chain: 'stacks', network: 'mainnet', apply: [block], rollback: [] } },
  });
  for (let round = 0; ; round++) {
    const block = { block_identifier: { index: round, hash: '0x' + round }, timestamp: round,
                    transactions: [{ note: 'y'.repeat((round * 53) % 3000) }] };
    await Promise.all([0, 1, 2, 3, 4].map((k) => {
      const ids = Array.from({ length: per }, (_, j) => (round * 5 + k) * per + j);
      return outbox.enqueue(ids.map((i) => payload(i, block))).then(() => ids.forEach((i) => say('E p' + i)));
    }));
    if (round % 3 !== 2) continue;
    const due = await outbox.due(1e15, 4, new Set());
    await Promise.all(due.map(({ payload, attempts }) => attempts === 0
      ? outbox.recordAttempt(payload.id, { at: 1, status_code: 500, error: 'HTTP 500', latency_ms: 1 },
          { state: 'pending', next_attempt_at: 2000 + round }).then(() => say('R ' + payload.id))
      : outbox.recordAttempt(payload.id, { at: 2, status_code: 200, error: null, latency_ms: 1 },
          { state: 'delivered' }).then(() => say('D ' + payload.id))));
  }`;

/** Run the writer until it has acknowledged `atLeast` payloads, SIGKILL it, and return its lines. */
async function runAndKill(
  dir: string,
  atLeast: number,
  window: number,
  perEnqueue: number,
): Promise<string[]> {
  const args = [
    '--import',
    'tsx',
    '--input-type=module',
    '-e',
    WRITER,
    dir,
    String(window),
    String(perEnqueue),
  ];
  const child = spawn(process.execPath, args, {
    cwd: process.cwd(),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  // Listened for from the start, and never taken back: the kill below is sure to be seen.
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const lines: string[] = [];
  let partial = '';
  // Lines that arrive after there are enough are still kept: they were acknowledged too.
  const enough = new Promise<void>((resolve) => {
    child.stdout.on('data', (chunk: Buffer) => {
      const parts = (partial + chunk.toString()).split('\n');
      partial = parts.pop()!;
      lines.push(...parts);
      if (lines.filter((l) => l.startsWith('E ')).length >= atLeast) resolve();
    });
  });
  const first = await Promise.race([enough.then(() => 'enough' as const), exited]);
  if (first !== 'enough') throw new Error(`writer exited by itself (${first})`);
  child.kill('SIGKILL');
  await exited;
  return lines;
}
