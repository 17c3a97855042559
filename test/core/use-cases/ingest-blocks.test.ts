import { rm } from 'node:fs/promises';
import { expect } from 'chai';
import { silentLogger } from '../../../adapters/system/index.js';
import { storeUnavailable } from '../../../core/hooks/errors.js';
import type { HookRecord } from '../../../core/hooks/record.js';
import type { ChainEvent } from '../../../core/ports/chain-update-sink.js';
import { createStackhooks, type Stackhooks } from '../../../apps/server/container.js';
import { sampleDefinition } from '../../support/definitions.js';
import { ChainBuilder, TEST_KEYS, addressOf, stxTransfer } from '../../support/block-builder.js';
import { openEmbedded } from '../../support/live-stack.js';
import { dropSchema, freshSchemaUrl, postgresAvailable } from '../../support/postgres.js';
import { makeTempDir } from '../../support/temp-dir.js';

type BuiltBlock = ReturnType<ChainBuilder['next']>;

// Mocha decides what to register when the module loads, so the server is asked here, once.
const postgres = await postgresAvailable();

describe('BlockIngest', function () {
  this.timeout(30_000);
  let dataDir: string;
  const open = () => openEmbedded(dataDir);
  beforeEach(async () => {
    dataDir = await makeTempDir();
  });
  afterEach(async () => rm(dataDir, { recursive: true, force: true }));

  async function processAll(s: Stackhooks): Promise<void> {
    await s.ingest.wake();
    await s.ingest.idle();
  }

  /**
   * Two blocks of a transfer and a hook matching it: b1 processed, then the stop that `cut` makes
   * of b2 (logged as an entry that is not marked processed), and the store closed.
   */
  async function stopDuringSecondBlock(
    s: Stackhooks,
    cut: (b2: BuiltBlock, id: number) => Promise<unknown>,
  ): Promise<{ hook: HookRecord; b1: BuiltBlock; b2: BuiltBlock }> {
    const chain = new ChainBuilder();
    const tx = await stxTransfer({ recipient: addressOf(TEST_KEYS.bob), amount: 1n });
    const [b1, b2] = [chain.next({ transactions: [tx] }), chain.next({ transactions: [tx] })];
    const hook = await s.registry.register('owner', {
      ...sampleDefinition(),
      filters: { events: [{ type: 'stx_event' }] },
      options: { enable_on_registration: true },
    });
    await s.eventLog.append('/new_block', JSON.stringify(b1), 1);
    await processAll(s);
    await cut(b2, await s.eventLog.append('/new_block', JSON.stringify(b2), 2));
    await s.close();
    return { hook, b1, b2 };
  }

  it('publishes again, after a restart, a chain change a stop cut off between the archive and the outbox', async () => {
    let s = await open();
    // The cut: b2 is logged and archived, its change never reached the outbox, its entry not marked.
    const { hook, b1, b2 } = await stopDuringSecondBlock(s, (b2, id) =>
      s.ingest.ingestNodeBlock(b2 as never, id, false),
    );

    s = await open();
    try {
      await processAll(s);
      const log = await s.deliveryLog.list('owner', hook.uuid, {});
      const heights = log.results.map((r) => r.apply.map((b) => b.index)).reverse();
      expect(heights).to.deep.equal([[b1.block_height], [b2.block_height]]);
      // Processing again changes nothing more.
      await processAll(s);
      expect((await s.deliveryLog.list('owner', hook.uuid, {})).total).to.equal(2);
    } finally {
      await s.close();
    }
  });

  // The same stop on each store (PostgreSQL in a schema of its own, when it answers).
  const stores: [string, () => Promise<Stackhooks>][] = [['the embedded store', () => open()]];
  if (postgres) {
    const url = freshSchemaUrl('ingest');
    after(() => dropSchema(url));
    stores.push([
      'PostgreSQL',
      () =>
        createStackhooks({
          databaseUrl: url,
          dataDir,
          delivery: { allowPrivateTargets: true },
          adapters: { logger: silentLogger },
        }),
    ]);
  }
  for (const [name, openStore] of stores) {
    it(`counts a block once when a stop came after its change was stored and before its entry was marked, on ${name}`, async () => {
      let s = await openStore();
      // The cut: b2 archived and its change published (payloads and the hooks' step), its entry not marked.
      const { hook } = await stopDuringSecondBlock(s, (b2, id) => s.ingest.ingestNodeBlock(b2 as never, id));

      s = await openStore();
      try {
        await processAll(s);
        const stored = await s.registry.get('owner', hook.uuid);
        expect(stored.status.evaluated_block_count).to.equal(2);
        expect(stored.status.occurrence_count).to.equal(2);
        expect((await s.deliveryLog.list('owner', hook.uuid, {})).total).to.equal(2);
      } finally {
        await s.close();
      }
    });
  }

  it('does not publish blocks an import added while no entry was cut off', async () => {
    const chain = new ChainBuilder();
    let s = await open();
    const hook = await s.registry.register('owner', {
      ...sampleDefinition(),
      filters: { events: [{ type: 'stx_event' }] },
      options: { enable_on_registration: true },
    });
    await s.eventLog.append('/new_block', JSON.stringify(chain.next()), 1);
    await processAll(s);
    await s.ingest.ingestNodeBlock(chain.next() as never, 0, false);
    await s.close();
    s = await open();
    try {
      await processAll(s);
      expect((await s.deliveryLog.list('owner', hook.uuid, {})).total).to.equal(0);
    } finally {
      await s.close();
    }
  });

  /** A sink that records each chain event, refusing those the test says as a store outage would. */
  function outageSink(refuse: (event: ChainEvent) => boolean) {
    const events: ChainEvent[] = [];
    return {
      events,
      async chainUpdated(event: ChainEvent) {
        if (refuse(event)) throw storeUnavailable('the database cannot be reached');
        events.push(event);
      },
    };
  }

  it('stops at a block whose change the store cannot take, without skipping it, and publishes it on the next wake', async () => {
    const chain = new ChainBuilder();
    const [b1, b2, b3] = [chain.next(), chain.next(), chain.next()];
    let down = false;
    const sink = outageSink(() => down);
    const s = await createStackhooks({ dataDir, adapters: { logger: silentLogger, chainUpdates: sink } });
    try {
      await s.eventLog.append('/new_block', JSON.stringify(b1), 1);
      await processAll(s);
      down = true;
      await s.eventLog.append('/new_block', JSON.stringify(b2), 2);
      await s.eventLog.append('/new_block', JSON.stringify(b3), 3);
      const failure = await s.ingest.wake().then(
        () => undefined,
        (err: unknown) => err,
      );
      expect((failure as { code?: string }).code).to.equal('unavailable');
      expect(await s.eventLog.processedId()).to.equal(1);
      down = false;
      await processAll(s);
      expect(sink.events.map((e) => [e.eventId, e.apply.map((b) => b.block_identifier.index)])).to.deep.equal(
        [
          [1, [b1.block_height]],
          [2, [b2.block_height]],
          [3, [b3.block_height]],
        ],
      );
      expect(await s.eventLog.processedId()).to.equal(3);
    } finally {
      await s.close();
    }
  });

  it('processes nothing while paused, and after a resume reconciles with what happened meanwhile', async () => {
    const chain = new ChainBuilder();
    const [b1, b2, b3] = [chain.next(), chain.next(), chain.next()];
    const sink = outageSink(() => false);
    const s = await createStackhooks({ dataDir, adapters: { logger: silentLogger, chainUpdates: sink } });
    try {
      await s.eventLog.append('/new_block', JSON.stringify(b1), 1);
      await processAll(s);
      await s.ingest.pause();
      const id = await s.eventLog.append('/new_block', JSON.stringify(b2), 2);
      await processAll(s);
      expect(await s.eventLog.processedId()).to.equal(1);
      // Meanwhile another process held the lock, archived b2 and was cut off before publishing it.
      await s.ingest.ingestNodeBlock(b2 as never, id, false);
      await s.eventLog.append('/new_block', JSON.stringify(b3), 3);
      s.ingest.resume();
      await processAll(s);
      expect(sink.events.map((e) => [e.eventId, e.apply.map((b) => b.block_identifier.index)])).to.deep.equal(
        [
          [1, [b1.block_height]],
          [2, [b2.block_height]],
          [3, [b3.block_height]],
        ],
      );
    } finally {
      await s.close();
    }
  });
});
