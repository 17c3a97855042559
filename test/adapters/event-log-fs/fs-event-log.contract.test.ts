import { rm } from 'node:fs/promises';
import { FsEventLog } from '../../../adapters/event-log-fs/index.js';
import { eventLogContract } from '../../contracts/event-log.contract.js';
import { makeTempDir } from '../../support/temp-dir.js';

for (const blockingWrites of [false, true])
  eventLogContract(blockingWrites ? 'FsEventLog writing with blocking calls' : 'FsEventLog', async () => {
    const dir = await makeTempDir('stackhooks-eventlog-');
    let current = await FsEventLog.open(dir, { blockingWrites });
    return {
      log: current,
      async reopen() {
        await current.close();
        current = await FsEventLog.open(dir, { blockingWrites });
        return current;
      },
      async cleanup() {
        await current.close();
        await rm(dir, { recursive: true, force: true });
      },
    };
  });
