import { rm } from 'node:fs/promises';
import { expect } from 'chai';
import { MemoryOutbox } from '../../../adapters/outbox/index.js';
import { LowdbHookRepository, StoreFile } from '../../../adapters/store-lowdb/index.js';
import type { NormalizedBlock } from '../../../core/chain/block.js';
import { normalizeBlock } from '../../../core/stacks-codec/normalize-block.js';
import type { HookOptions } from '../../../core/hooks/definition.js';
import { createHook } from '../../../core/hooks/lifecycle.js';
import type { LiveStep } from '../../../core/hooks/live-progress.js';
import type { StoredHook } from '../../../core/hooks/record.js';
import type { OutgoingPayload } from '../../../core/ports/delivery-queue.js';
import { LiveMatching } from '../../../core/use-cases/live-matching.js';
import { ChainBuilder, TEST_KEYS, addressOf, stxTransfer } from '../../support/block-builder.js';
import { sampleDefinition } from '../../support/definitions.js';
import { makeTempDir } from '../../support/temp-dir.js';

const bob = addressOf(TEST_KEYS.bob);
let created = 1_700_000_000_000;

/** An enabled hook on STX transfers to `recipient`. */
function hookTo(recipient: string, options: HookOptions = {}): StoredHook {
  const definition = sampleDefinition({
    filters: { events: [{ type: 'stx_transfer', receiver: recipient }] },
    options: { enable_on_registration: true, ...options },
  }) as StoredHook['definition'];
  return createHook('alice', crypto.randomUUID(), definition, created++);
}

/** Normalized blocks, each with one STX transfer to bob. */
async function blocksToBob(count: number): Promise<NormalizedBlock[]> {
  const chain = new ChainBuilder();
  const tx = await stxTransfer({ recipient: bob, amount: 5n });
  return Array.from(
    { length: count },
    () =>
      normalizeBlock(chain.next({ transactions: [tx] }), { network: 'mainnet', lookupAbi: () => undefined })
        .block,
  );
}

/** The embedded store, with the hooks each live step names written down. */
class RecordingRepository extends LowdbHookRepository {
  readonly written: string[][] = [];

  override recordLiveStep(
    step: LiveStep,
    uuids: readonly string[],
    change: (hook: StoredHook) => StoredHook | undefined,
    after?: Promise<unknown>,
  ): Promise<StoredHook[]> {
    this.written.push([...uuids]);
    return super.recordLiveStep(step, uuids, change, after);
  }
}

/** An outbox whose next enqueue fails (its store went away for a moment), then works again. */
class FaultyOutbox extends MemoryOutbox {
  failNext = false;

  override async enqueue(payloads: OutgoingPayload[]): Promise<void> {
    if (this.failNext) {
      this.failNext = false;
      throw new Error('outbox unavailable');
    }
    return super.enqueue(payloads);
  }
}

describe('LiveMatching counters', () => {
  let dir: string;
  let file: StoreFile;
  let hooks: RecordingRepository;
  let queue: FaultyOutbox;
  let live: LiveMatching;
  let eventId = 0;

  beforeEach(async () => {
    dir = await makeTempDir();
    file = await StoreFile.open(dir);
    hooks = new RecordingRepository(file);
    queue = new FaultyOutbox();
    const clock = { now: () => 1_700_000_600_000 };
    live = new LiveMatching(hooks, queue, clock, {
      network: 'mainnet',
      maxHooksPerOwner: 100,
      serverVersion: 't',
    });
  });
  afterEach(async () => {
    await file.close();
    await rm(dir, { recursive: true, force: true });
  });

  const apply = (...blocks: NormalizedBlock[]) =>
    live.chainUpdated({ eventId: ++eventId, rollback: [], apply: blocks });
  const shown = async (hook: StoredHook) => (await hooks.get('alice', hook.uuid))!.status;

  it('writes only the hooks a block gives a payload, yet every live hook shows the block evaluated', async () => {
    const matching = hookTo(bob);
    const others = [1, 2, 3].map(() => hookTo(addressOf(TEST_KEYS.alice)));
    for (const hook of [matching, ...others]) await hooks.insert(hook, 100);
    const [block] = await blocksToBob(1);
    await apply(block);
    expect(hooks.written).to.deep.equal([[matching.uuid]]);
    for (const hook of [matching, ...others]) {
      expect(await shown(hook)).to.include({
        status: 'streaming',
        evaluated_block_count: 1,
        last_evaluated_block_height: block.block_identifier.index,
      });
    }
    expect(await shown(matching)).to.include({ occurrence_count: 1 });
  });

  it('counts nothing of a block whose payloads could not be queued, and counts it once when it comes again', async () => {
    const matching = hookTo(bob);
    await hooks.insert(matching, 100);
    const [block] = await blocksToBob(1);
    queue.failNext = true;
    const [failed] = await Promise.allSettled([apply(block)]);
    expect(failed.status).to.equal('rejected');
    expect((await hooks.liveProgress()).evaluated).to.equal(0);
    expect(await shown(matching)).to.include({ occurrence_count: 0, evaluated_block_count: 0 });
    // Processed again under the same event id, as after a restart: the same payload ids.
    await live.chainUpdated({ eventId, rollback: [], apply: [block] });
    expect(queue.all()).to.have.length(1);
    expect(await shown(matching)).to.include({ occurrence_count: 1, evaluated_block_count: 1 });
  });

  it('writes a hook with an evaluation limit only in the block that reaches it, and expires it there', async () => {
    const limited = hookTo(addressOf(TEST_KEYS.alice), { expire_after_evaluations: 3 });
    await hooks.insert(limited, 100);
    const blocks = await blocksToBob(4);
    for (const block of blocks.slice(0, 2)) await apply(block);
    expect(hooks.written).to.deep.equal([[], []]);
    await apply(blocks[2]);
    expect(hooks.written[2]).to.deep.equal([limited.uuid]);
    expect(await live.liveHookCount()).to.equal(0);
    await apply(blocks[3]);
    expect(await shown(limited)).to.include({
      status: 'expired',
      enabled: false,
      evaluated_block_count: 3,
      last_evaluated_block_height: blocks[2].block_identifier.index,
    });
  });

  it('sends a hook only the blocks up to its evaluation limit from an event that applies several', async () => {
    const limited = hookTo(bob, { expire_after_evaluations: 3 });
    await hooks.insert(limited, 100);
    const blocks = await blocksToBob(4);
    await apply(blocks[0]);
    await apply(...blocks.slice(1));
    const sent = queue.all().map((payload) => payload.apply.map((block) => block.index));
    expect(sent).to.deep.equal([
      [blocks[0].block_identifier.index],
      blocks.slice(1, 3).map((b) => b.block_identifier.index),
    ]);
    expect(await shown(limited)).to.include({
      status: 'expired',
      evaluated_block_count: 3,
      last_evaluated_block_height: blocks[2].block_identifier.index,
    });
  });
});
