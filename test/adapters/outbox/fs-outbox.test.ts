import { rm } from 'node:fs/promises';
import { openFsOutbox } from '../../../adapters/outbox/index.js';
import { deliveryQueueContract } from '../../contracts/delivery-queue.contract.js';
import { makeTempDir } from '../../support/temp-dir.js';

deliveryQueueContract('FsOutbox', async () => {
  const dir = await makeTempDir('stackhooks-outbox-');
  let current = await openFsOutbox(dir);
  return {
    queue: current,
    async reopen() {
      await current.close();
      current = await openFsOutbox(dir);
      return current;
    },
    async cleanup() {
      await current.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
});

// The same, with compaction so frequent that most reopens replay a snapshot rather than the changes.
deliveryQueueContract('FsOutbox, compacting constantly', async () => {
  const dir = await makeTempDir('stackhooks-outbox-');
  let current = await openFsOutbox(dir, { compactAtBytes: 1 });
  return {
    queue: current,
    async reopen() {
      await current.close();
      current = await openFsOutbox(dir, { compactAtBytes: 1 });
      return current;
    },
    async cleanup() {
      await current.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
});

// Two pending payloads per hook in memory and no body cache: queues spill to disk at once, and
// every body is read back from its record.
deliveryQueueContract('FsOutbox, two pending in memory per hook, bodies read from disk', async () => {
  const dir = await makeTempDir('stackhooks-outbox-');
  const options = { pendingInMemoryPerHook: 2, bodyCacheBytes: 0, compactAtBytes: 2_000 };
  let current = await openFsOutbox(dir, options);
  return {
    queue: current,
    async reopen() {
      await current.close();
      current = await openFsOutbox(dir, options);
      return current;
    },
    async cleanup() {
      await current.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
});
