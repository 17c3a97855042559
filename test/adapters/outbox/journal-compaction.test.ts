import { open, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'chai';
import { Compaction } from '../../../adapters/outbox/journal-compaction.js';
import { OutboxState } from '../../../adapters/outbox/outbox-state.js';
import { MemoryPayloads } from '../../../adapters/outbox/payload-store.js';
import { StateSnapshot } from '../../../adapters/outbox/state-snapshot.js';
import { T0, outgoing } from '../../contracts/delivery-queue.contract.js';
import { makeTempDir } from '../../support/temp-dir.js';

describe('Compaction', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await makeTempDir('stackhooks-compaction-');
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  // Writes a snapshot of 60 payloads in 256-byte slices; returns the datasyncs made and its size.
  async function writeSnapshot(syncEveryBytes: number): Promise<{ datasyncs: number; bytes: number }> {
    const state = new OutboxState(new MemoryPayloads(), Infinity);
    state.enqueue(Array.from({ length: 60 }, (_, i) => outgoing(`h${i % 3}`, { created_at: T0 + i })));
    const probe = await open(join(dir, 'probe'), 'w');
    const handles = Object.getPrototypeOf(probe) as { datasync: () => Promise<void> };
    await probe.close();
    const datasync = handles.datasync;
    let datasyncs = 0;
    handles.datasync = function (this: unknown) {
      datasyncs++;
      return datasync.call(this);
    };
    try {
      const job = new Compaction(
        join(dir, 'next.tmp'),
        StateSnapshot.take(state),
        256,
        [],
        () => {},
        syncEveryBytes,
      );
      await job.written;
      const bytes = await job.seal();
      return { datasyncs, bytes };
    } finally {
      handles.datasync = datasync;
    }
  }

  it('syncs a snapshot as it is written, each time the interval more of it is', async () => {
    const { datasyncs, bytes } = await writeSnapshot(1024);
    expect(bytes).to.be.above(4 * 1024);
    expect(datasyncs).to.be.at.least(Math.floor(bytes / (1024 + 256)));
  });

  it('leaves a snapshot smaller than the interval to its one sync at the end', async () => {
    expect((await writeSnapshot(1 << 30)).datasyncs).to.equal(0);
  });
});
