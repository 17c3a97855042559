import { rm } from 'node:fs/promises';
import { expect } from 'chai';
import { openFsArchive } from '../../../adapters/archive-fs/index.js';
import type { BlockStore } from '../../../core/ports/block-store.js';
import type { WebhookRequest, WebhookSender } from '../../../core/ports/webhook-sender.js';
import { startBackfillStack, type BackfillStack } from '../../support/backfill-stack.js';
import { ChainBuilder, TEST_KEYS, addressOf, stxTransfer } from '../../support/block-builder.js';
import { sampleDefinition } from '../../support/definitions.js';
import { makeTempDir } from '../../support/temp-dir.js';

/** A receiver that holds each request until the test lets it go. */
function heldReceiver(): {
  sender: WebhookSender;
  sent: WebhookRequest[];
  release(): void;
  arrived(n: number): Promise<void>;
} {
  const sent: WebhookRequest[] = [];
  let gate: Promise<void> | undefined = new Promise(() => undefined);
  let open: () => void = () => undefined;
  gate = new Promise((resolve) => (open = resolve));
  return {
    sent,
    sender: {
      async send(request) {
        sent.push(request);
        await gate;
        return { status: 200, retryAfterSeconds: null, error: null, refusedTarget: false, latencyMs: 1 };
      },
    },
    release: () => open(),
    async arrived(n) {
      while (sent.length < n) await new Promise((resolve) => setTimeout(resolve, 5));
    },
  };
}

const heightOf = (request: WebhookRequest): number =>
  (JSON.parse(request.body) as { event: { apply: { block_identifier: { index: number } }[] } }).event.apply[0]
    .block_identifier.index;

describe('BackfillScans', function () {
  this.timeout(60_000);
  let s: BackfillStack;
  let receiver: ReturnType<typeof heldReceiver>;
  let chain: ChainBuilder;
  let transfer: Awaited<ReturnType<typeof stxTransfer>>;

  beforeEach(async () => {
    receiver = heldReceiver();
    s = await startBackfillStack({ adapters: { sender: receiver.sender } });
    chain = new ChainBuilder({ label: 'backfill-scans' });
    transfer = await stxTransfer({ recipient: addressOf(TEST_KEYS.bob), amount: 1n });
    for (let height = 1; height <= 10; height++) {
      await s.stackhooks.ingest.ingestNodeBlock(chain.next({ transactions: [transfer] }));
    }
  });
  afterEach(async () => {
    receiver.release();
    await s.stop();
  });

  const register = (enabled: boolean) =>
    s.stackhooks.registry.register(
      s.owner,
      sampleDefinition({
        filters: { events: [{ type: 'stx_transfer' }] },
        options: { enable_on_registration: enabled },
      }),
    );

  it('drops the payloads a cancel finds unsent, and keeps what was sent', async () => {
    const hook = await register(false);
    const { id } = await s.stackhooks.backfills.request(s.owner, hook.uuid, { from_block_height: 1 });
    await receiver.arrived(1);
    const cancelled = await s.stackhooks.backfills.cancel(s.owner, hook.uuid, id);
    expect(cancelled.state).to.equal('cancelled');
    receiver.release();
    for (;;) {
      const pending = await s.stackhooks.deliveryLog.list(s.owner, hook.uuid, { state: 'pending' });
      if (pending.total === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const log = await s.stackhooks.deliveryLog.list(s.owner, hook.uuid, {});
    const delivered = log.results.filter((r) => r.state === 'delivered');
    const failed = log.results.filter((r) => r.state === 'failed');
    expect(delivered.map((r) => r.apply[0].index)).to.deep.equal([1]);
    expect(failed.length).to.be.greaterThan(0);
    for (const record of failed) expect(record.failure_reason).to.contain('cancelled');
    expect(receiver.sent.map(heightOf)).to.deep.equal([1]);
    expect((await s.stackhooks.backfills.get(s.owner, hook.uuid, id)).state).to.equal('cancelled');
  });

  it('delivers a live block that arrives during a backfill, and the backfill’s payloads stay in order', async () => {
    const hook = await register(true);
    const { id } = await s.stackhooks.backfills.request(s.owner, hook.uuid, { from_block_height: 1 });
    await receiver.arrived(1);
    await s.stackhooks.ingest.ingestNodeBlock(chain.next({ transactions: [transfer] }));
    receiver.release();
    const finished = await s.finished(hook.uuid, id);
    expect(finished).to.include({ state: 'done', payloads_delivered: 10 });
    for (;;) {
      const pending = await s.stackhooks.deliveryLog.list(s.owner, hook.uuid, { state: 'pending' });
      if (pending.total === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const fromBackfill = receiver.sent.filter((r) => r.headers['stackhooks-backfill-id'] === id);
    const live = receiver.sent.filter((r) => r.headers['stackhooks-backfill-id'] === undefined);
    expect(fromBackfill.map(heightOf)).to.deep.equal([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(live.map(heightOf)).to.deep.equal([11]);
  });

  it('drops a queued payload whose block a reorganization took off the canonical chain, and sends no orphan', async () => {
    const hook = await register(false);
    const { id } = await s.stackhooks.backfills.request(s.owner, hook.uuid, { from_block_height: 1 });
    await receiver.arrived(1);
    // Blocks 9 and 10 (queued, not sent) are replaced by a longer fork from 8.
    const fork = chain.forkFrom(chain.blocks().find((b) => b.block_height === 8)!.index_block_hash);
    const replaced = chain
      .blocks()
      .filter((b) => b.block_height > 8)
      .map((b) => b.index_block_hash);
    for (let i = 0; i < 3; i++) await s.stackhooks.ingest.ingestNodeBlock(fork.next());
    receiver.release();
    const finished = await s.finished(hook.uuid, id);
    expect(finished).to.include({ state: 'done', payloads_delivered: 8, payloads_failed: 2 });
    const sentHashes = receiver.sent.map(
      (r) =>
        (JSON.parse(r.body) as { event: { apply: { block_identifier: { hash: string } }[] } }).event.apply[0]
          .block_identifier.hash,
    );
    expect(receiver.sent.map(heightOf)).to.deep.equal([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(sentHashes.filter((hash) => replaced.includes(hash))).to.deep.equal([]);
    const failed = (await s.stackhooks.deliveryLog.list(s.owner, hook.uuid, { state: 'failed' })).results;
    expect(failed.map((r) => r.apply[0].index).sort((a, b) => a - b)).to.deep.equal([9, 10]);
    for (const record of failed) expect(record.failure_reason).to.contain('left the canonical chain');
  });

  it('rolls back, in the live stream, the blocks near the tip a backfill sent when a reorganization takes them away', async () => {
    const hook = await register(true);
    const { id } = await s.stackhooks.backfills.request(s.owner, hook.uuid, { from_block_height: 1 });
    receiver.release();
    expect(await s.finished(hook.uuid, id)).to.include({ state: 'done', payloads_delivered: 10 });
    // Blocks 9 and 10, sent by the backfill alone (the hook was registered after them), are replaced.
    const replaced = chain
      .blocks()
      .filter((b) => b.block_height > 8)
      .map((b) => b.index_block_hash);
    const fork = chain.forkFrom(chain.blocks().find((b) => b.block_height === 8)!.index_block_hash);
    for (let i = 0; i < 3; i++)
      await s.stackhooks.ingest.ingestNodeBlock(fork.next({ transactions: [transfer] }));
    // The live payload that applies the fork's first block is the reorganization's: it rolls back the old.
    const firstLive = async () => {
      for (;;) {
        const log = await s.stackhooks.deliveryLog.list(s.owner, hook.uuid, {});
        const live = log.results.find((r) => r.kind === 'live' && r.apply[0]?.index === 9);
        if (live) return live;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    };
    const reorg = await firstLive();
    expect(reorg.rollback.map((b) => b.hash).sort()).to.deep.equal([...replaced].sort());
  });

  it('scans a Chainhook 1.x predicate from start_block to end_block by its scope, as 1.x payloads not streaming', async () => {
    receiver.release();
    const uuid = await s.stackhooks.predicates.register(s.owner, {
      uuid: '4ad7a2e1-9d3c-4f0b-8a51-0c2b3e6f7a10',
      name: 'range',
      version: 1,
      chain: 'stacks',
      networks: {
        mainnet: {
          if_this: { scope: 'block_height', between: [3, 5] },
          then_that: { http_post: { url: 'http://127.0.0.1:9/v1', authorization_header: 'Bearer x' } },
          start_block: 2,
          end_block: 8,
        },
      },
    });
    const [backfill] = (await s.stackhooks.backfills.list(s.owner, uuid)).results;
    expect(backfill).to.include({ from_block_height: 2, to_block_height: 8 });
    expect(await s.finished(uuid, backfill!.id)).to.include({
      state: 'done',
      blocks_scanned: 7,
      blocks_matched: 3,
    });
    const bodies = receiver.sent.map(
      (r) =>
        JSON.parse(r.body) as {
          apply: { block_identifier: { index: number }; transactions: unknown[] }[];
          chainhook: { uuid: string; is_streaming_blocks: boolean };
        },
    );
    expect(bodies.map((b) => b.apply[0]!.block_identifier.index)).to.deep.equal([3, 4, 5]);
    // block_height matches the whole block: its transfer comes with it.
    expect(bodies.map((b) => b.apply[0]!.transactions.length)).to.deep.equal([1, 1, 1]);
    for (const body of bodies)
      expect(body.chainhook).to.include({
        uuid: '4ad7a2e1-9d3c-4f0b-8a51-0c2b3e6f7a10',
        is_streaming_blocks: false,
      });
  });
});

describe('BackfillScans beside live work', function () {
  this.timeout(60_000);

  it('gives a chain event waiting for its turn the next turn after the chunk in hand, then scans on', async () => {
    const dir = await makeTempDir();
    const archive = await openFsArchive(dir);
    const reads: string[] = [];
    let onRead: (() => void) | undefined;
    // The archive, with each range read noted (and, once armed, live work queued at the first).
    const blocks = new Proxy(archive, {
      get(target, property) {
        if (property === 'canonicalRange') {
          return (from: number, to: number) => {
            reads.push(`range ${from}`);
            onRead?.();
            onRead = undefined;
            return target.canonicalRange(from, to);
          };
        }
        const value = Reflect.get(target, property, target) as unknown;
        return typeof value === 'function' ? value.bind(target) : value;
      },
    }) as BlockStore;
    const s = await startBackfillStack({ adapters: { blocks } });
    try {
      const chain = new ChainBuilder({ label: 'backfill-gives-way' });
      for (let height = 1; height <= 100; height++) await s.stackhooks.ingest.ingestNodeBlock(chain.next());
      const hook = await s.stackhooks.registry.register(
        s.owner,
        sampleDefinition({
          filters: {
            events: [{ type: 'ft_transfer', asset_identifier: 'SP000000000000000000002Q6VF78.none::none' }],
          },
          options: { enable_on_registration: false },
        }),
      );
      onRead = () =>
        void s.stackhooks.liveMatching.withLiveV1Hooks(async () => {
          reads.push('live');
        });
      const { id } = await s.stackhooks.backfills.request(s.owner, hook.uuid, {
        from_block_height: 1,
        to_block_height: 100,
      });
      expect(await s.finished(hook.uuid, id)).to.include({ state: 'done', blocks_scanned: 100 });
      expect(reads.filter((read) => read.startsWith('range')).length).to.be.greaterThan(2);
      expect(reads.indexOf('live')).to.equal(1);
    } finally {
      await s.stop();
      await archive.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('scans on after the heights a range read answered when the archive answers fewer than asked', async () => {
    const dir = await makeTempDir();
    // One block a read: every record is larger than a byte.
    const archive = await openFsArchive(dir, { rangeReadBytes: 1 });
    const s = await startBackfillStack({ adapters: { blocks: archive } });
    try {
      const chain = new ChainBuilder({ label: 'backfill-short-reads' });
      const transfer = await stxTransfer({ recipient: addressOf(TEST_KEYS.bob), amount: 1n });
      for (let height = 1; height <= 40; height++) {
        await s.stackhooks.ingest.ingestNodeBlock(chain.next({ transactions: height % 3 ? [] : [transfer] }));
      }
      const hook = await s.stackhooks.registry.register(
        s.owner,
        sampleDefinition({
          filters: { events: [{ type: 'stx_transfer' }] },
          options: { enable_on_registration: false },
        }),
      );
      const { id } = await s.stackhooks.backfills.request(s.owner, hook.uuid, {
        from_block_height: 1,
        to_block_height: 40,
      });
      expect(await s.finished(hook.uuid, id)).to.include({
        state: 'done',
        blocks_scanned: 40,
        payloads_delivered: 13,
      });
      expect(s.sent.map(heightOf)).to.deep.equal(Array.from({ length: 13 }, (_, i) => 3 * (i + 1)));
    } finally {
      await s.stop();
      await archive.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
