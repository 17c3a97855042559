import { inject, injectable } from 'inversify';
import type { NormalizedBlock } from '../chain/block.js';
import { missingHeights, type ChainGap } from '../chain/chain-gap.js';
import type { ChainNote, ChainUpdate } from '../chain/chain-update.js';
import { LOGGER, type Logger } from '../ports/logger.js';

/** Where a body came from: an entry of the raw event log, or a line of an imported recording. */
export type BodySource = { event_id: number } | { file: string; line: number };

/** The source as an operator reads it: `event 12`, `import FILE line 45`. */
export function describeSource(source: BodySource): string {
  return 'event_id' in source ? `event ${source.event_id}` : `import ${source.file} line ${source.line}`;
}

/**
 * What the chain model and the archive did besides moving the canonical chain, since the process
 * started: plain numbers a metrics exporter can read (they only grow).
 */
export type ChainCounters = {
  /** New blocks stored (duplicates not counted). */
  blocksArchived: number;
  gapsOpened: number;
  /** Gaps closed: filled, switched away from, or merged into a wider one. */
  gapsClosed: number;
  /** Gaps that a filled run made smaller without closing them. */
  gapsNarrowed: number;
  orphansHeld: number;
  orphansDropped: number;
  /** Blocks archived with transactions that could not be decoded. */
  unreadableBlocks: number;
  /** Bodies that could not become a block at all, kept aside with their reason. */
  quarantinedBodies: number;
};

/**
 * Tells the operator what happened to the chain: a warning log line for every gap opened, narrowed
 * or closed, orphan held or dropped and body quarantined, an error line for every block archived
 * with transactions it could not read, and counters of each. Live ingest and import share it.
 */
@injectable()
export class ChainNotices {
  readonly counters: ChainCounters = {
    blocksArchived: 0,
    gapsOpened: 0,
    gapsClosed: 0,
    gapsNarrowed: 0,
    orphansHeld: 0,
    orphansDropped: 0,
    unreadableBlocks: 0,
    quarantinedBodies: 0,
  };

  constructor(@inject(LOGGER) private readonly logger: Logger) {}

  /** A block was stored: count it, tell its unreadable transactions and what it did to the chain. */
  blockArchived(block: NormalizedBlock, update: ChainUpdate, source: BodySource): void {
    this.counters.blocksArchived++;
    const unreadable = block.unreadable_transactions ?? [];
    if (unreadable.length > 0) {
      this.counters.unreadableBlocks++;
      // An error: events of these transactions reach no hook until the body is fixed and replayed.
      this.logger.error('block archived with transactions that could not be read', {
        ...source,
        index_block_hash: block.block_identifier.hash,
        block_height: block.block_identifier.index,
        unreadable: unreadable.map((tx) => ({ txid: tx.txid, tx_index: tx.tx_index, reason: tx.reason })),
      });
    }
    for (const note of update.notes ?? []) this.#note(note, source);
  }

  /** A body was quarantined. */
  bodyQuarantined(
    source: BodySource,
    reason: string,
    claimed: { index_block_hash: string | null; block_height: number | null },
  ): void {
    this.counters.quarantinedBodies++;
    this.logger.warn('body quarantined: it cannot become a block', { ...source, ...claimed, reason });
  }

  /** A body failed for a reason that is not its own (a fault of this service) and was quarantined all the same. */
  unexpectedFailure(source: BodySource, err: unknown): void {
    this.logger.error('a body could not be archived for a fault of the service; it was quarantined', {
      ...source,
      error: err instanceof Error ? err.message : String(err),
    });
  }

  #note(note: ChainNote, source: BodySource): void {
    switch (note.kind) {
      case 'gap_opened':
        this.counters.gapsOpened++;
        this.logger.warn('gap opened: a block arrived whose parent never came', {
          ...source,
          ...gapFields(note.gap),
          opened_by: note.gap.opened_by,
        });
        return;
      case 'gap_narrowed':
        this.counters.gapsNarrowed++;
        this.logger.warn('gap narrowed: missing blocks arrived', {
          ...source,
          ...gapFields(note.gap),
          was: { from_height: note.previous.from_height, to_height: note.previous.to_height },
          by: note.by,
        });
        return;
      case 'gap_closed':
        this.counters.gapsClosed++;
        this.logger.warn(`gap closed (${note.how})`, { ...source, ...gapFields(note.gap), by: note.by });
        return;
      case 'orphan_held':
        this.counters.orphansHeld++;
        this.logger.warn('orphan held: a block at or below the tip whose parent is unknown', {
          ...source,
          index_block_hash: note.block.hash,
          block_height: note.block.height,
          parent_index_block_hash: note.block.parent_hash,
          held: note.held,
        });
        return;
      case 'orphan_dropped':
        this.counters.orphansDropped++;
        this.logger.warn('orphan dropped: it will never be connected', {
          ...source,
          index_block_hash: note.block.hash,
          block_height: note.block.height,
          reason: note.reason === 'too_many' ? 'too many orphans held' : 'too far below the tip',
        });
        return;
    }
  }
}

function gapFields(gap: ChainGap) {
  return { from_height: gap.from_height, to_height: gap.to_height, missing: missingHeights(gap) };
}
