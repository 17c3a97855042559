import { inject, injectable, optional } from 'inversify';
import type { NormalizedBlock } from '../chain/block.js';
import type { ContractAbi } from '../chain/contract-abi.js';
import { bootContractAbi } from '../contracts/boot-contracts.js';
import { mempoolCalledContracts } from '../contracts/mempool-calls.js';
import { hasUnnamedArgs, nameContractCalls, unnamedCallContracts } from '../contracts/name-contract-calls.js';
import {
  NodeInterfaces,
  nodeInterfaceCounters,
  type NodeInterfaceCounters,
} from '../contracts/node-interfaces.js';
import { CLOCK, type Clock } from '../ports/clock.js';
import {
  CONTRACT_INTERFACE_SOURCE,
  type ContractInterfaceSource,
} from '../ports/contract-interface-source.js';
import { CONTRACT_STORE, type ContractStore } from '../ports/contract-store.js';
import { LOGGER, type Logger } from '../ports/logger.js';
import { TIMER, type Timer } from '../ports/timer.js';
import { SERVICE_SETTINGS, type ServiceSettings } from '../settings.js';
import type { DeployedContract } from '../stacks-codec/normalize-block.js';

/** ABIs kept in memory; the busiest contracts are called again and again. */
const ABI_CACHE_SIZE = 5_000;
/** How long a contract the store did not know stays unknown before the store is asked again. */
const STORE_RECHECK_MS = 60_000;
/** How long answers of the node gather before they are written together (close() waits for them). */
const WRITE_DELAY_MS = 250;
/** Contracts remembered as absent, and contracts logged as unnamed, at most (the oldest go first). */
const MEMORY_LIMIT = 10_000;

/** What naming contract calls has given and cost so far: plain numbers a metrics adapter reads. */
export type ContractAbiCounters = NodeInterfaceCounters & {
  /** Contract calls archived with unnamed arguments and inferred types (no ABI known in time). */
  unnamed_calls: number;
  /** Distinct contracts among them (each is logged once). */
  unnamed_contracts: number;
};

/**
 * Where contract-call arguments get their names and declared types: the ABI of the called contract,
 * from (in this order) a deploy the service saw or an answer of the node kept in the contract
 * store, the boot contracts' ABIs shipped with the package, and the node's RPC when one is
 * configured. Everything that names calls (live blocks, imports, evaluations, rollbacks) asks
 * here, and nothing waits on the node longer than its timeout.
 */
@injectable()
export class ContractAbis {
  private readonly known = new Map<string, ContractAbi>();
  /** Contracts the store had no ABI for, with the time to ask it again (another process may add one). */
  private readonly absent = new Map<string, number>();
  private readonly node: NodeInterfaces | undefined;
  /** Writes of the node's answers and mempool look-ups under way (idle() waits for them). */
  private readonly background = new Set<Promise<void>>();
  private pendingWrites: { contract_identifier: string; abi: ContractAbi }[] = [];
  private readonly reported = new Set<string>();
  /** The counts so far, read at any time (they only grow from the process's start). */
  readonly counters: ContractAbiCounters = {
    ...nodeInterfaceCounters(),
    unnamed_calls: 0,
    unnamed_contracts: 0,
  };

  constructor(
    @inject(CONTRACT_STORE) private readonly store: ContractStore,
    @inject(CLOCK) private readonly clock: Clock,
    @inject(TIMER) private readonly timer: Timer,
    @inject(LOGGER) private readonly logger: Logger,
    @inject(SERVICE_SETTINGS) private readonly settings: Pick<ServiceSettings, 'network'>,
    @inject(CONTRACT_INTERFACE_SOURCE) @optional() source?: ContractInterfaceSource,
  ) {
    const learned = (id: string, abi: ContractAbi) => this.learned(id, abi);
    this.node = source && new NodeInterfaces(source, clock, timer, logger, learned, this.counters);
  }

  /** The ABI known now for a contract, or undefined; synchronous, for normalization. */
  readonly lookup = (contractId: string): ContractAbi | undefined =>
    this.known.get(contractId) ?? bootContractAbi(contractId, this.settings.network);

  /** Whether resolving `contractId` now could learn its ABI (else it would cost nothing and learn nothing). */
  isDue(contractId: string): boolean {
    if (this.known.has(contractId)) return false;
    return this.storeDue(contractId, this.clock.now()) || this.askable(contractId);
  }

  /**
   * Learn what can be learned now about the ABIs of `ids`: the store first, then the node for
   * those still unknown. Waits for the node at most its timeout; what it answers later is kept.
   */
  async resolve(ids: Iterable<string>): Promise<void> {
    const now = this.clock.now();
    const due = [...new Set(ids)].filter((id) => !this.known.has(id));
    const fromStore = due.filter((id) => this.storeDue(id, now));
    if (fromStore.length > 0) {
      const found = await this.store.getAbis(fromStore);
      for (const id of fromStore) {
        const abi = found.get(id);
        if (abi) this.remember(id, abi);
        else this.markAbsent(id, now + STORE_RECHECK_MS);
      }
    }
    if (this.node) await this.node.ask(due.filter((id) => !this.known.has(id) && this.askable(id)));
  }

  /**
   * Start learning the ABIs of the contracts the transactions of a `/new_mempool_tx` body call,
   * without waiting: by the time a block mines them, its calls are named without asking the node.
   * Does nothing without a node (the store is asked when a block calls them anyway).
   */
  prefetchMempool(body: string): void {
    if (!this.node) return;
    const due = [...mempoolCalledContracts(body, this.settings.network)].filter((id) => this.isDue(id));
    if (due.length === 0) return;
    const prefetch = this.resolve(due).catch((err: unknown) => {
      this.logger.warn('could not look up the ABIs of contracts called in the mempool', {
        contracts: due.length,
        error: err instanceof Error ? err.message : String(err),
      });
    });
    this.background.add(prefetch);
    void prefetch.finally(() => this.background.delete(prefetch));
  }

  /** Keep the ABIs of contracts a block being archived deploys, for the blocks after it. */
  rememberDeploys(contracts: readonly DeployedContract[]): void {
    const now = this.clock.now();
    for (const contract of contracts) {
      if (contract.abi) this.remember(contract.contract_identifier, contract.abi);
      else this.markAbsent(contract.contract_identifier, now + STORE_RECHECK_MS);
    }
  }

  /**
   * An archived block with the calls that went unnamed when it was archived named from the ABIs
   * known now (resolving them first, within the node's timeout); the block itself if none.
   */
  async nameCalls(block: NormalizedBlock): Promise<NormalizedBlock> {
    const ids = unnamedCallContracts(block);
    if (ids.size === 0) return block;
    await this.resolve(ids);
    return nameContractCalls(block, this.lookup);
  }

  /** Count the calls of a block being archived that go unnamed; log each such contract once. */
  noteUnnamedCalls(block: NormalizedBlock): void {
    for (const tx of block.transactions) {
      if (!hasUnnamedArgs(tx) || tx.payload.type !== 'contract_call') continue;
      this.counters.unnamed_calls++;
      const id = tx.payload.contract_identifier;
      if (this.reported.has(id)) continue;
      this.counters.unnamed_contracts++;
      if (this.reported.size >= MEMORY_LIMIT) this.reported.clear();
      this.reported.add(id);
      this.logger.warn(
        'no ABI for a called contract: its arguments go out unnamed, typed from their values',
        {
          contract: id,
          function: tx.payload.function_name,
          node_rpc: this.node !== undefined,
        },
      );
    }
  }

  /** Resolves when no request to the node, write of its answers or mempool look-up is under way. */
  async idle(): Promise<void> {
    await this.node?.idle();
    while (this.background.size > 0) await Promise.all([...this.background]);
  }

  private storeDue(id: string, now: number): boolean {
    return (this.absent.get(id) ?? 0) <= now;
  }

  // The node is not asked about boot contracts: their ABIs ship with the package.
  private askable(id: string): boolean {
    return this.node !== undefined && !bootContractAbi(id, this.settings.network) && this.node.wouldAsk(id);
  }

  private learned(id: string, abi: ContractAbi): void {
    this.remember(id, abi);
    // The answers to one block's requests arrive over a few milliseconds: they are kept in one
    // write, once the block has been archived and shaped (the write would compete with it).
    this.pendingWrites.push({ contract_identifier: id, abi });
    if (this.pendingWrites.length > 1) return;
    const write = this.timer.wait(WRITE_DELAY_MS).elapsed.then(async () => {
      const batch = this.pendingWrites;
      this.pendingWrites = [];
      try {
        await this.store.putAbis(batch);
      } catch (err) {
        // Not kept means asked again after a restart; the names are right meanwhile.
        this.logger.warn('could not keep contract ABIs from the node', {
          contracts: batch.length,
          error: err instanceof Error ? err.message : String(err),
        });
      }
    });
    this.background.add(write);
    void write.finally(() => this.background.delete(write));
  }

  private remember(id: string, abi: ContractAbi): void {
    this.absent.delete(id);
    if (this.known.size >= ABI_CACHE_SIZE) this.known.delete(this.known.keys().next().value as string);
    this.known.set(id, abi);
  }

  private markAbsent(id: string, until: number): void {
    this.absent.delete(id);
    if (this.absent.size >= MEMORY_LIMIT) this.absent.delete(this.absent.keys().next().value as string);
    this.absent.set(id, until);
  }
}
