import { inject, injectable } from 'inversify';
import type { NormalizedBlock } from '../chain/block.js';
import type { ChainUpdate } from '../chain/chain-update.js';
import type { AddressMemo } from '../stacks-codec/clarity-repr.js';
import { checkNodeBlock, claimedIdentity } from '../stacks-codec/check-node-block.js';
import type { NodeBlock } from '../stacks-codec/node-block.js';
import { nameContractCalls } from '../contracts/name-contract-calls.js';
import { normalizeBlock, type NormalizedBlockResult } from '../stacks-codec/normalize-block.js';
import { StackhooksError } from '../hooks/errors.js';
import { BLOCK_STORE, type BlockStore } from '../ports/block-store.js';
import { CLOCK, type Clock } from '../ports/clock.js';
import { CONTRACT_STORE, type ContractStore } from '../ports/contract-store.js';
import { SERVICE_SETTINGS, type ServiceSettings } from '../settings.js';
import { ChainNotices, describeSource, type BodySource } from './chain-notices.js';
import { ContractAbis } from './contract-abis.js';

/** A node block once archived: its normalized form and what it did to the canonical chain. */
export type ArchivedBlock = { block: NormalizedBlock; update: ChainUpdate };

/** A `/new_block` body as received: the node's JSON text, where it came from and when (ms since the epoch). */
export type ReceivedBody = { body: string; source: BodySource; receivedAt?: number };

/** What became of a body: the block archived, or why it was quarantined. */
export type BodyOutcome =
  { archived: ArchivedBlock; quarantined?: undefined } | { archived?: undefined; quarantined: string };

/** A body read and normalized, ready to store. */
type ReadyBlock = { received: ReceivedBody; block: NormalizedBlock };

const isFailure = (err: unknown, code: string) => err instanceof StackhooksError && err.code === code;
const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err));

/**
 * Node blocks into the archive: each checked (a body that can never become a block is quarantined
 * with its reason, so processing goes on), normalized with the ABIs known (`ContractAbis`), the
 * contracts it deploys kept for later blocks, then stored, and what it did to the chain told
 * (`ChainNotices`). Live ingest and archive import share it; it needs only the block and contract
 * stores (and the node's RPC, when configured), so an import runs without the rest of the service.
 */
@injectable()
export class BlockArchiver {
  /** c32 addresses of earlier blocks: consecutive blocks name the same senders and contracts. */
  private readonly addresses: AddressMemo = new Map();

  constructor(
    @inject(BLOCK_STORE) private readonly blocks: BlockStore,
    @inject(CONTRACT_STORE) private readonly contracts: ContractStore,
    @inject(ContractAbis) private readonly abis: ContractAbis,
    @inject(SERVICE_SETTINGS) private readonly settings: Pick<ServiceSettings, 'network'>,
    @inject(ChainNotices) private readonly notices: ChainNotices,
    @inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** How many distinct blocks the archive holds. */
  archivedBlocks(): Promise<number> {
    return this.blocks.count();
  }

  /**
   * Check, normalize and store one node block; a block already archived changes nothing. A body
   * that can never become a block is refused with a validation error, and nothing of it is stored.
   */
  async archiveNodeBlock(
    nodeBlock: NodeBlock,
    source: BodySource = { event_id: 0 },
    receivedAt?: number,
  ): Promise<ArchivedBlock> {
    const block = await this.normalizeAndKeepContracts(checkNodeBlock(nodeBlock));
    const update = await this.blocks.put(block, { receivedAt });
    if (!update.duplicate) this.notices.blockArchived(block, update, source);
    return { block, update };
  }

  /**
   * Archive a body as received. One that can never become a block (unreadable JSON, an id or height
   * no block has, a place in the tree it can never take) is quarantined with its reason, so the
   * bodies after it go on. A store that cannot be reached is not the body's fault: that error is
   * thrown and nothing is quarantined.
   */
  async archiveBody(received: ReceivedBody): Promise<BodyOutcome> {
    const ready = await this.read(received);
    return 'quarantined' in ready ? ready : this.store(ready);
  }

  /** Whether the store writes a run of blocks in one batch (else a run gains nothing but memory). */
  writesBatches(): boolean {
    return this.blocks.putMany !== undefined;
  }

  /**
   * Archive a run of bodies in order, as `archiveBody` does each, in one batch write where the store
   * offers it. Contracts deployed early in the run name the arguments of later calls.
   */
  async archiveBodies(bodies: ReceivedBody[]): Promise<void> {
    if (!this.blocks.putMany) {
      for (const received of bodies) await this.archiveBody(received);
      return;
    }
    const ready: ReadyBlock[] = [];
    for (const received of bodies) {
      const read = await this.read(received);
      if (!('quarantined' in read)) ready.push(read);
    }
    if (ready.length === 0) return;
    let updates: ChainUpdate[];
    try {
      updates = await this.blocks.putMany(ready.map(({ block }) => block));
    } catch (err) {
      if (!isFailure(err, 'validation')) throw err;
      // A block the tree refuses refuses its whole batch, and nothing of it is stored: one by one
      // finds it, and quarantines it alone.
      for (const block of ready) await this.store(block);
      return;
    }
    updates.forEach((update, i) => {
      if (!update.duplicate) this.notices.blockArchived(ready[i].block, update, ready[i].received.source);
    });
  }

  /** Parse, check and normalize a body; quarantine it when it is no block. */
  private async read(received: ReceivedBody): Promise<ReadyBlock | { quarantined: string }> {
    let parsed: unknown;
    try {
      parsed = JSON.parse(received.body);
    } catch (err) {
      return this.quarantine(received, undefined, `not JSON: ${messageOf(err)}`);
    }
    try {
      return { received, block: await this.normalizeAndKeepContracts(checkNodeBlock(parsed)) };
    } catch (err) {
      return this.quarantineFor(received, parsed, err);
    }
  }

  /** Store a block read from a body; a block the tree refuses is quarantined. */
  private async store({ received, block }: ReadyBlock): Promise<BodyOutcome> {
    let update: ChainUpdate;
    try {
      update = await this.blocks.put(block, { receivedAt: received.receivedAt });
    } catch (err) {
      return this.quarantineFor(received, JSON.parse(received.body), err);
    }
    if (!update.duplicate) this.notices.blockArchived(block, update, received.source);
    return { archived: { block, update } };
  }

  /**
   * Quarantine a body for the error it caused. A store that cannot be reached is no fault of the
   * body: that error is thrown. Any other failure is not the body's fault either but would stop the
   * chain at it for good, so it is quarantined too (and logged as an error); when even the
   * quarantine cannot be written, the original error is thrown and the body is tried again later.
   */
  private async quarantineFor(
    received: ReceivedBody,
    parsed: unknown,
    err: unknown,
  ): Promise<{ quarantined: string }> {
    if (isFailure(err, 'unavailable')) throw err;
    if (isFailure(err, 'validation')) return this.quarantine(received, parsed, messageOf(err));
    let quarantined: { quarantined: string };
    try {
      quarantined = await this.quarantine(received, parsed, `could not be archived: ${messageOf(err)}`);
    } catch {
      throw err;
    }
    this.notices.unexpectedFailure(received.source, err);
    return quarantined;
  }

  private async quarantine(
    received: ReceivedBody,
    parsed: unknown,
    reason: string,
  ): Promise<{ quarantined: string }> {
    const claimed = claimedIdentity(parsed);
    await this.blocks.quarantine({
      reason,
      received_at: received.receivedAt ?? this.clock.now(),
      source: describeSource(received.source),
      ...claimed,
      body: received.body,
    });
    this.notices.bodyQuarantined(received.source, reason, claimed);
    return { quarantined: reason };
  }

  private async normalizeAndKeepContracts(nodeBlock: NodeBlock): Promise<NormalizedBlock> {
    const { block, contracts } = await this.normalize(nodeBlock);
    if (contracts.length > 0) {
      await this.contracts.putContracts(contracts);
      this.abis.rememberDeploys(contracts);
    }
    this.abis.noteUnnamedCalls(block);
    return block;
  }

  // Normalization is synchronous: ABIs it could still learn are resolved (within the node's
  // timeout), then the calls they name are named in the normalized block, as on read-back
  // (normalizing the whole block again cost as much as the first time).
  private async normalize(nodeBlock: NodeBlock): Promise<NormalizedBlockResult> {
    const due = new Set<string>();
    const lookupAbi = (id: string) => {
      if (this.abis.isDue(id)) due.add(id);
      return this.abis.lookup(id);
    };
    const context = { network: this.settings.network, lookupAbi, addresses: this.addresses };
    const first = normalizeBlock(nodeBlock, context);
    if (due.size === 0) return first;
    await this.abis.resolve(due);
    return { ...first, block: nameContractCalls(first.block, this.abis.lookup) };
  }
}
