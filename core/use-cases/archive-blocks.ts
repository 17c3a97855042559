import { inject, injectable } from 'inversify';
import type { NormalizedBlock } from '../chain/block.js';
import type { ChainUpdate } from '../chain/chain-update.js';
import type { AddressMemo } from '../stacks-codec/clarity-repr.js';
import type { NodeBlock } from '../stacks-codec/node-block.js';
import { normalizeBlock, type NormalizedBlockResult } from '../stacks-codec/normalize-block.js';
import { BLOCK_STORE, type BlockStore } from '../ports/block-store.js';
import { CONTRACT_STORE, type ContractStore } from '../ports/contract-store.js';
import { SERVICE_SETTINGS, type ServiceSettings } from '../settings.js';
import { ContractAbis } from './contract-abis.js';

/** A node block once archived: its normalized form and what it did to the canonical chain. */
export type ArchivedBlock = { block: NormalizedBlock; update: ChainUpdate };

/**
 * Node blocks into the archive: each normalized with the ABIs known (`ContractAbis`), the contracts
 * it deploys kept for later blocks, then stored. Live ingest and archive import share it; it needs
 * only the block and contract stores (and the node's RPC, when configured), so an import runs
 * without the rest of the service.
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
  ) {}

  /** How many distinct blocks the archive holds. */
  archivedBlocks(): Promise<number> {
    return this.blocks.count();
  }

  /** Normalize and store one node block; a block already archived changes nothing. */
  async archiveNodeBlock(nodeBlock: NodeBlock): Promise<ArchivedBlock> {
    const block = await this.normalizeAndKeepContracts(nodeBlock);
    return { block, update: await this.blocks.put(block) };
  }

  /** Whether the store writes a run of blocks in one batch (else a run gains nothing but memory). */
  writesBatches(): boolean {
    return this.blocks.putMany !== undefined;
  }

  /**
   * Normalize and store a run of node blocks in order, in one batch write where the store offers
   * it. Contracts deployed early in the run name the arguments of later calls.
   */
  async archiveNodeBlocks(nodeBlocks: NodeBlock[]): Promise<void> {
    if (!this.blocks.putMany) {
      for (const nodeBlock of nodeBlocks) await this.archiveNodeBlock(nodeBlock);
      return;
    }
    const blocks: NormalizedBlock[] = [];
    for (const nodeBlock of nodeBlocks) blocks.push(await this.normalizeAndKeepContracts(nodeBlock));
    await this.blocks.putMany(blocks);
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
  // timeout) and the block normalized once more.
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
    return normalizeBlock(nodeBlock, context);
  }
}
