import { rm } from 'node:fs/promises';
import { expect } from 'chai';
import { openFsOutbox, type FsOutboxOptions } from '../../../adapters/outbox/index.js';
import { SENT_BLOCKS_IN_MEMORY } from '../../../adapters/outbox/sent-applies.js';
import { outgoing } from '../../contracts/delivery-queue.contract.js';
import { makeTempDir } from '../../support/temp-dir.js';

const hash = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;
const BLOCKS = SENT_BLOCKS_IN_MEMORY * 3;

describe('FsOutbox, blocks sent to hooks', () => {
  let dir: string;

  beforeEach(async () => {
    dir = await makeTempDir('stackhooks-outbox-sent-');
  });

  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  // One enqueue per block, as live matching queues a chain event's payloads together.
  async function sendBlocks(options: FsOutboxOptions) {
    const outbox = await openFsOutbox(dir, options);
    for (let n = 0; n < BLOCKS; n++)
      await outbox.enqueue(
        ['h1', 'h2'].map((hook) =>
          outgoing(hook, { apply: [{ hash: hash(n), index: n, tx_indexes: [n % 4] }] }),
        ),
      );
    return outbox;
  }

  for (const [name, options] of [
    ['replaying its changes', { compactAtBytes: 1 << 30 }],
    ['replaying a compaction', { compactAtBytes: 1 }],
  ] as const) {
    it(`holds only the newest blocks in memory and names the older ones in rollbacks from disk, also after a reopen ${name}`, async () => {
      const outbox = await sendBlocks(options);
      expect(outbox.inMemory().sentBlocks).to.equal(SENT_BLOCKS_IN_MEMORY);
      const sent = await outbox.sentApplies([hash(0), hash(BLOCKS - 1)]);
      expect([...sent.keys()].sort()).to.deep.equal(['h1', 'h2']);
      expect([...sent.get('h1')!]).to.deep.equal([
        [hash(0), [0]],
        [hash(BLOCKS - 1), [(BLOCKS - 1) % 4]],
      ]);
      await outbox.close();

      const again = await openFsOutbox(dir, options);
      expect(again.inMemory().sentBlocks).to.equal(SENT_BLOCKS_IN_MEMORY);
      expect(await again.sentApplies([hash(0), hash(BLOCKS - 1)])).to.deep.equal(sent);
      await again.close();
    });

    it(`forgets a block on disk that a rollback took back from a hook, also after a reopen ${name}`, async () => {
      const outbox = await sendBlocks(options);
      await outbox.enqueue([outgoing('h1', { rollback: [{ hash: hash(0), index: 0 }] })]);
      expect([...(await outbox.sentApplies([hash(0)])).keys()]).to.deep.equal(['h2']);
      await outbox.close();

      const again = await openFsOutbox(dir, options);
      expect([...(await again.sentApplies([hash(0)])).keys()]).to.deep.equal(['h2']);
      await again.close();
    });
  }
});
