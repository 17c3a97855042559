import { inject, injectable } from 'inversify';
import type { NormalizedBlock } from '../chain/block.js';
import type { BlockHeader } from '../chain/block-header.js';
import type { NodeBlock } from '../stacks-codec/node-block.js';
import { BLOCK_STORE, type BlockStore } from '../ports/block-store.js';
import {
  CHAIN_UPDATE_SINK,
  type ChainUpdateOutcome,
  type ChainUpdateSink,
} from '../ports/chain-update-sink.js';
import { CLOCK, type Clock } from '../ports/clock.js';
import { EVENT_LOG, type EventLog, type RawEvent } from '../ports/event-log.js';
import { LOGGER, type Logger } from '../ports/logger.js';
import { BlockArchiver, type ArchivedBlock } from './archive-blocks.js';
import { blockReport, logBlockReport, type BlockEntryReport } from './block-report.js';
import { ContractAbis } from './contract-abis.js';
import { readProcessedNote, writeProcessedNote, type ProcessedNote } from './processed-note.js';

/** What ingesting one node block did; `outcome` is what the sink did, when it was published. */
export type IngestResult = ArchivedBlock & { outcome?: ChainUpdateOutcome };

/**
 * Blocks in: a node block is archived (normalized with the ABIs of earlier deploys) and its effect
 * on the canonical chain handed to the sink. Entries of the raw event log are processed in order,
 * once each, and marked processed only after the sink has stored their consequences. A store that
 * is unavailable (a database outage) stops processing before the entry in hand, which is processed
 * again on the next wake; a run that failed part-way first republishes the change it cut off.
 */
@injectable()
export class BlockIngest {
  private running: Promise<void> | undefined;
  private again = false;
  private recovered = false;
  private paused = false;
  /** The last `/new_block` entry processed, carried in every processed mark's note. */
  private lastBlock: ProcessedNote['block'];
  private readonly listeners: ((report: BlockEntryReport) => void)[] = [];
  private readonly stackerDbReaders: ((entry: RawEvent) => Promise<void>)[] = [];

  constructor(
    @inject(EVENT_LOG) private readonly log: EventLog,
    @inject(BLOCK_STORE) private readonly blocks: BlockStore,
    @inject(BlockArchiver) private readonly archiver: BlockArchiver,
    @inject(CHAIN_UPDATE_SINK) private readonly sink: ChainUpdateSink,
    @inject(LOGGER) private readonly logger: Logger,
    @inject(ContractAbis) private readonly abis: ContractAbis,
    @inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** Be told what happened to every `/new_block` entry processed (for metrics and readiness). */
  onBlock(listener: (report: BlockEntryReport) => void): void {
    this.listeners.push(listener);
  }

  /**
   * Have every `/stackerdb_chunks` entry read, in log order, before it is marked processed (a
   * rejection stops processing there, and the entry is read again on the next wake).
   */
  onStackerDbPost(reader: (entry: RawEvent) => Promise<void>): void {
    this.stackerDbReaders.push(reader);
  }

  /** Start processing whatever the log holds beyond the last processed entry; calls while busy coalesce. */
  wake(): Promise<void> {
    if (this.paused) return Promise.resolve();
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = this.drain().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  /**
   * Stop after the entry in hand (another process may be taking over) and resolve once idle; `wake`
   * does nothing until `resume`.
   */
  async pause(): Promise<void> {
    this.paused = true;
    await this.idle().catch(() => undefined);
  }

  /**
   * Process again after a pause. Others may have processed meanwhile, or a stop may have cut a change
   * off, so the next run starts by reconciling the processed mark with the archive's tip.
   */
  resume(): void {
    this.paused = false;
    this.recovered = false;
  }

  /** Resolves when no processing is under way. */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  /** How many distinct blocks the archive holds. */
  archivedBlocks(): Promise<number> {
    return this.blocks.count();
  }

  /**
   * Check, normalize, archive and publish one node block; a block already archived changes nothing.
   * A body that can never become a block is refused with a validation error (the event log's entries
   * are quarantined instead, so processing goes on).
   */
  async ingestNodeBlock(nodeBlock: NodeBlock, eventId = 0, publish = true): Promise<IngestResult> {
    const archived = await this.archiver.archiveNodeBlock(nodeBlock, { event_id: eventId });
    if (!publish) return archived;
    const outcome = await this.publish(archived, eventId);
    return { ...archived, ...(outcome && { outcome }) };
  }

  private async publish(
    { block, update }: ArchivedBlock,
    eventId: number,
  ): Promise<ChainUpdateOutcome | void> {
    if (update.apply.length === 0 && update.rollback.length === 0) return;
    return this.sink.chainUpdated({
      eventId,
      rollback: await this.load(update.rollback),
      apply: await this.load(update.apply, block),
    });
  }

  private async drain(): Promise<void> {
    try {
      await this.drainInOrder();
    } catch (err) {
      // The entry in hand may have reached the archive and not the sink: reconcile before going on.
      this.recovered = false;
      throw err;
    }
  }

  private async drainInOrder(): Promise<void> {
    if (!this.recovered) {
      await this.recoverCutOffChange();
      this.recovered = true;
    }
    do {
      this.again = false;
      for (;;) {
        if (this.paused) return;
        const after = await this.log.processedId();
        const entries = await this.log.readAfter(after, 64);
        if (entries.length === 0) break;
        for (const entry of entries) {
          if (this.paused) return;
          if (entry.path === '/new_block') await this.processBlockEntry(entry);
          else if (entry.path === '/new_mempool_tx') this.abis.prefetchMempool(entry.body);
          else if (entry.path === '/stackerdb_chunks')
            for (const read of this.stackerDbReaders) await read(entry);
          await this.log.markProcessed(entry.id, await this.tipNote());
        }
      }
    } while (this.again);
  }

  // The processed mark carries the tip the sink has seen, for recoverCutOffChange.
  private async tipNote(): Promise<string> {
    const tip = (await this.blocks.tip())?.hash ?? null;
    return writeProcessedNote({ tip, ...(this.lastBlock && { block: this.lastBlock }) });
  }

  /**
   * A crash after the archive took a block but before its chain change reached the sink would lose
   * that change: processing the entry again finds the block archived and changes nothing. The mark
   * of the last processed entry names the tip the sink saw; when the archive's tip differs and the
   * next entry is a block, the difference is the lost change, published again under that entry's id
   * (so payloads that did reach the outbox are not queued twice).
   */
  private async recoverCutOffChange(): Promise<void> {
    const note = readProcessedNote(await this.log.processedNote());
    this.lastBlock = note?.block;
    const tip = await this.blocks.tip();
    if (note === undefined || tip === undefined) return;
    const seen = note.tip;
    if (seen === tip.hash) return;
    const [next] = await this.log.readAfter(await this.log.processedId(), 1);
    if (next?.path !== '/new_block') return;
    const rollback: NormalizedBlock[] = [];
    let cursor = seen === null ? undefined : await this.blocks.getByHash(seen);
    while (cursor && !(await this.blocks.isCanonical(cursor.block_identifier.hash))) {
      rollback.push(await this.abis.nameCalls(cursor));
      cursor = await this.blocks.getByHash(cursor.parent_block_identifier.hash);
    }
    const apply: NormalizedBlock[] = [];
    const from = cursor ? cursor.block_identifier.index + 1 : tip.height;
    for (let height = from; height <= tip.height; height++) {
      const block = await this.blocks.getCanonicalAt(height);
      if (block) apply.push(await this.abis.nameCalls(block));
    }
    this.logger.info('publishing a chain change a stop cut off', {
      event_id: next.id,
      rollback: rollback.length,
      apply: apply.length,
    });
    await this.sink.chainUpdated({ eventId: next.id, rollback, apply, republished: true });
  }

  // A body that cannot become a block is quarantined by the archiver with its reason and entry id,
  // so one bad body cannot stall the chain; a store that cannot be reached stops processing here
  // (the error is thrown), and the entry is processed again on the next wake.
  private async processBlockEntry(entry: RawEvent): Promise<void> {
    const started = this.clock.now();
    const body = await this.archiver.archiveBody({
      body: entry.body,
      source: { event_id: entry.id },
      receivedAt: entry.received_at,
    });
    let report: BlockEntryReport;
    if (body.archived) {
      const { block, update } = body.archived;
      const outcome = await this.publish(body.archived, entry.id);
      report = blockReport(entry, block, update, outcome, this.clock.now() - started);
      logBlockReport(this.logger, report);
    } else {
      report = {
        kind: 'unreadable',
        eventId: entry.id,
        receivedAt: entry.received_at,
        error: body.quarantined,
      };
    }
    // The node posted a block: it counts for readiness even when it could not become one.
    this.lastBlock = { id: entry.id, received_at: entry.received_at };
    for (const listener of this.listeners) listener(report);
  }

  // Blocks read back from the archive may hold calls that went unnamed when they were archived:
  // ABIs learned since name them.
  private async load(headers: BlockHeader[], justStored?: NormalizedBlock): Promise<NormalizedBlock[]> {
    return Promise.all(
      headers.map(async (header) => {
        if (justStored && header.hash === justStored.block_identifier.hash) return justStored;
        const block = await this.blocks.getByHash(header.hash);
        if (!block) throw new Error(`archived block ${header.hash} is missing`);
        return this.abis.nameCalls(block);
      }),
    );
  }
}
