import { expect } from 'chai';
import { FsEventLog, type FsEventLogOptions } from '../../../adapters/event-log-fs/index.js';
import { StackhooksError } from '../../../core/hooks/errors.js';
import { withFaultyDisk } from '../../support/faulty-disk.js';
import { SMALL_SEGMENT_BYTES, appendIntoZeroFilledSegments } from '../../support/zero-filled-segments.js';

/** Append `bodies` at once; the bodies acknowledged, and whether every failure was a 503-kind one. */
async function appendAll(
  log: FsEventLog,
  bodies: string[],
): Promise<{ acked: string[]; unavailable: boolean }> {
  const results = await Promise.allSettled(bodies.map((body, i) => log.append('/new_block', body, i)));
  const acked = bodies.filter((_, i) => results[i].status === 'fulfilled');
  const unavailable = results.every(
    (r) =>
      r.status === 'fulfilled' || (r.reason instanceof StackhooksError && r.reason.code === 'unavailable'),
  );
  return { acked, unavailable };
}

const bodies = (tag: string, count: number) => Array.from({ length: count }, (_, i) => `{"${tag}":${i}}`);

for (const blockingWrites of [false, true])
  describe(`FsEventLog under disk faults${blockingWrites ? ', writing with blocking calls' : ''}`, () => {
    const { disk, dir } = withFaultyDisk('stackhooks-eventlog-faults-');
    const open = (options: FsEventLogOptions = {}) => FsEventLog.open(dir(), { ...options, blockingWrites });

    /** Reopen with the real file functions and read every entry. */
    async function reopened(): Promise<{ ids: number[]; bodies: string[] }> {
      disk.uninstall();
      const again = await FsEventLog.open(dir());
      const entries = await again.readAfter(0, 1000);
      await again.close();
      await disk.install();
      return { ids: entries.map((e) => e.id), bodies: entries.map((e) => e.body) };
    }

    for (const room of [0, 1, 7, 8, 20, 40]) {
      it(`keeps every acknowledged entry, and those after, when the disk fills with ${room} bytes of room`, async () => {
        const log = await open();
        const before = await appendAll(log, bodies('before', 3));
        disk.room = room;
        const during = await appendAll(log, bodies('during', 4));
        expect(during.acked.length).to.be.below(4);
        expect(during.unavailable).to.equal(true);
        disk.heal();
        const after = await appendAll(log, bodies('after', 3));
        await log.close();
        const read = await reopened();
        const acked = [...before.acked, ...during.acked, ...after.acked];
        expect(read.bodies).to.deep.equal(acked);
        expect(read.ids).to.deep.equal(acked.map((_, i) => i + 1));
      });
    }

    it('keeps every acknowledged entry when the process stops while the disk is still full', async () => {
      const log = await open();
      const before = await appendAll(log, bodies('before', 2));
      disk.room = 13;
      expect((await appendAll(log, bodies('during', 2))).acked).to.deep.equal([]);
      await log.close();
      expect((await reopened()).bodies).to.deep.equal(before.acked);
    });

    it('refuses an entry whose write fails with EIO and appends the next one after the last good entry', async () => {
      const log = await open();
      await log.append('/new_block', '{"a":1}', 1);
      disk.failWrite('EIO');
      const failed = await log.append('/new_block', '{"b":2}', 2).catch((err: unknown) => err);
      expect(failed).to.be.instanceOf(StackhooksError).with.property('code', 'unavailable');
      expect(await log.append('/new_block', '{"c":3}', 3)).to.equal(2);
      await log.close();
      expect((await reopened()).bodies).to.deep.equal(['{"a":1}', '{"c":3}']);
    });

    it('refuses an entry whose fsync fails and cuts it off, so it never shows up later', async () => {
      const log = await open();
      await log.append('/new_block', '{"a":1}', 1);
      disk.failSync('EIO');
      await log.append('/new_block', '{"b":2}', 2).then(
        () => expect.fail('acknowledged an entry whose fsync failed'),
        (err: unknown) => expect(err).to.have.property('code', 'unavailable'),
      );
      expect(await log.append('/new_block', '{"c":3}', 3)).to.equal(2);
      await log.close();
      expect((await reopened()).bodies).to.deep.equal(['{"a":1}', '{"c":3}']);
    });

    it('refuses an entry whose fsync fails in a segment written full of zeros and never shows it later', async () => {
      const log = await open({ segmentBytes: SMALL_SEGMENT_BYTES });
      const bodies = await appendIntoZeroFilledSegments(log, dir());
      disk.failSync('EIO');
      const failed = await log.append('/new_block', '{"lost":"entry"}', 1).catch((err: unknown) => err);
      expect(failed).to.have.property('code', 'unavailable');
      expect(await log.append('/new_block', '{"c":3}', 3)).to.equal(bodies.length + 1);
      await log.close();
      expect((await reopened()).bodies).to.deep.equal([...bodies, '{"c":3}']);
    });

    it('cuts a torn tail it could not cut at the failure before it appends again', async () => {
      const log = await open();
      await log.append('/new_block', '{"a":1}', 1);
      disk.room = 10;
      disk.failTruncate(2);
      await log.append('/new_block', '{"torn":"entry"}', 2).catch(() => undefined);
      disk.room = 0;
      await log.append('/new_block', '{"still":"full"}', 3).catch(() => undefined);
      disk.heal();
      expect(await log.append('/new_block', '{"c":3}', 4)).to.equal(2);
      await log.close();
      expect((await reopened()).bodies).to.deep.equal(['{"a":1}', '{"c":3}']);
    });

    it('tells the disk space report of a full disk and of the next write that succeeds', async () => {
      const told: string[] = [];
      const log = await open({
        space: {
          failed: (store, err) => told.push(`failed ${store} ${(err as NodeJS.ErrnoException).code}`),
          wrote: (store) => told.push(`wrote ${store}`),
        },
      });
      disk.room = 0;
      await log.append('/new_block', '{}', 1).catch(() => undefined);
      disk.heal();
      await log.append('/new_block', '{}', 2);
      await log.close();
      expect(told).to.deep.equal(['failed event log ENOSPC', 'wrote event log']);
    });
  });
