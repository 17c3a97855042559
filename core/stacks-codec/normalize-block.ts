import type {
  ExecutionCost,
  NormalizedBlock,
  NormalizedBlockMetadata,
  NormalizedTransaction,
  UnreadableTransaction,
} from '../chain/block.js';
import type { TransactionPayload } from '../chain/transaction-payload.js';
import { decodeBurnchainTransaction } from './burnchain-operation.js';
import { createReprCache, decodeClarityValue, type AddressMemo, type ReprCache } from './clarity-repr.js';
import type { AbiLookup, ContractAbi } from '../chain/contract-abi.js';
import { decodeTransaction, type DecodedTransaction } from './decode-transaction.js';
import { bootAddress, type ChainNetwork } from './network.js';
import {
  type NodeBlock,
  type NodeEvent,
  type NodeExecutionCost,
  type NodeTransaction,
} from './node-block.js';
import { withOperations } from '../chain/operations.js';
import { normalizeEvent } from './normalize-event.js';
import { type TransactionEvent } from '../chain/transaction-event.js';

/** What normalization needs besides the block: the deployment's network and the ABIs of earlier blocks. */
export type NormalizeContext = {
  network: ChainNetwork;
  /** ABIs of contracts deployed in earlier blocks; synchronous, so normalization stays pure. */
  lookupAbi: AbiLookup;
  /** c32 addresses encoded for earlier blocks, to reuse and add to; without it, a memo for this block only. */
  addresses?: AddressMemo;
};

/** A contract a block deploys, for the caller to keep for later ABI lookups. */
export type DeployedContract = {
  contract_identifier: string;
  abi: ContractAbi | null;
  source_code: string;
  clarity_version: number | null;
};

/** The normalized block and the contracts it deploys. */
export type NormalizedBlockResult = { block: NormalizedBlock; contracts: DeployedContract[] };

const ZERO_COST: ExecutionCost = Object.freeze({
  read_count: 0,
  read_length: 0,
  runtime: 0,
  write_count: 0,
  write_length: 0,
});
const NO_MICROBLOCK = /^(0x)?0*$/;

/**
 * Turns a node's `/new_block` body into the normalized block: every transaction decoded (the
 * node's txids kept), its events and operations built, everything any payload option shows kept.
 * Contracts deployed earlier in the block are visible to the later transactions' argument naming.
 * The result is a function of the block and the context alone (an address memo in the context only
 * saves work, and is added to). A transaction that cannot be read (or a transaction list that is no
 * list) does not stop the block: it is kept in `unreadable_transactions` as the node sent it, with
 * the reason and its events, and the rest of the block is normalized as usual.
 */
export function normalizeBlock(nodeBlock: NodeBlock, context: NormalizeContext): NormalizedBlockResult {
  const cache = createReprCache(context.addresses);
  const boot = bootAddress(context.network);
  const unreadable: UnreadableTransaction[] = [];
  const nodeTransactions = readList(nodeBlock, 'transactions', unreadable);
  const eventsByTx = groupEvents(readList(nodeBlock, 'events', unreadable), unreadable);
  const deployed = new Map<string, ContractAbi>();
  const lookupAbi: AbiLookup = (id) => deployed.get(id) ?? context.lookupAbi(id);
  const contracts: DeployedContract[] = [];
  const transactions: NormalizedTransaction[] = [];

  for (const tx of nodeTransactions) {
    const nodeEvents = eventsByTx.get(tx?.txid) ?? [];
    let normalized: NormalizedTransaction;
    try {
      normalized = normalizeTransaction(tx, nodeEvents, context.network, boot, cache, lookupAbi);
    } catch (error) {
      unreadable.push(unreadableTransaction(tx, nodeEvents, error));
      continue;
    }
    transactions.push(normalized);
    const payload = normalized.payload;
    if (payload.type === 'contract_deploy' && tx.status === 'success') {
      if (payload.abi) deployed.set(payload.contract_identifier, payload.abi);
      contracts.push({
        contract_identifier: payload.contract_identifier,
        abi: payload.abi,
        source_code: payload.source_code,
        clarity_version: payload.clarity_version,
      });
    }
  }

  const block: NormalizedBlock = {
    block_identifier: { index: nodeBlock.block_height, hash: nodeBlock.index_block_hash },
    parent_block_identifier: { index: parentHeight(nodeBlock), hash: nodeBlock.parent_index_block_hash },
    timestamp: nodeBlock.block_time ?? nodeBlock.burn_block_time,
    transactions,
    metadata: blockMetadata(nodeBlock, nodeTransactions),
  };
  if (unreadable.length > 0) block.unreadable_transactions = unreadable;
  return { block, contracts };
}

/**
 * The list the node sent under `field`; anything else is noted as unreadable (with the whole
 * block's events when it is the transaction list, so none of them is lost) and read as empty.
 */
function readList<F extends 'transactions' | 'events'>(
  nodeBlock: NodeBlock,
  field: F,
  unreadable: UnreadableTransaction[],
): NodeBlock[F] {
  const value: unknown = nodeBlock[field];
  if (Array.isArray(value)) return value as NodeBlock[F];
  const events = field === 'transactions' && Array.isArray(nodeBlock.events) ? nodeBlock.events : [];
  unreadable.push({
    txid: null,
    tx_index: null,
    raw_tx: null,
    reason: `${field} must be a list, not ${value === null ? 'null' : typeof value}`,
    events,
  });
  return [];
}

/** A transaction that could not be decoded, as the node sent it, with why. */
function unreadableTransaction(
  tx: NodeTransaction | null | undefined,
  events: readonly NodeEvent[],
  error: unknown,
): UnreadableTransaction {
  const reason = error instanceof Error ? error.message : String(error);
  return {
    txid: typeof tx?.txid === 'string' ? tx.txid : null,
    tx_index: typeof tx?.tx_index === 'number' ? tx.tx_index : null,
    raw_tx: typeof tx?.raw_tx === 'string' ? tx.raw_tx : null,
    reason: reason === '' ? 'could not be decoded' : reason,
    events: [...events],
  };
}

function normalizeTransaction(
  tx: NodeTransaction,
  nodeEvents: readonly NodeEvent[],
  network: ChainNetwork,
  boot: string,
  cache: ReprCache,
  lookupAbi: AbiLookup,
): NormalizedTransaction {
  const decoded: DecodedTransaction =
    tx.raw_tx === '0x00'
      ? decodeBurnchainTransaction(tx.burnchain_op, nodeEvents, network)
      : decodeTransaction(tx.raw_tx, { network, cache, lookupAbi });
  const events: TransactionEvent[] = [];
  for (const nodeEvent of nodeEvents) {
    const event = normalizeEvent(nodeEvent, boot, cache);
    if (event) events.push(event);
  }
  const abi = deployedAbi(tx, decoded.payload);
  const payload: TransactionPayload =
    decoded.payload.type === 'contract_deploy' ? { ...decoded.payload, abi } : decoded.payload;
  const microblock =
    tx.microblock_hash && tx.microblock_sequence !== null && tx.microblock_sequence !== undefined
      ? { index: tx.microblock_sequence, hash: tx.microblock_hash }
      : null;
  return withOperations({
    transaction_identifier: { hash: tx.txid },
    metadata: {
      type: payload.type,
      status: tx.status,
      result: decodeClarityValue(tx.raw_result, cache),
      sender_address: decoded.sender_address,
      sponsor_address: decoded.sponsor_address,
      sponsored: decoded.sponsored,
      fee_rate: decoded.fee,
      nonce: decoded.nonce,
      position: { index: tx.tx_index, microblock_identifier: microblock },
      execution_cost: tx.execution_cost ? copyCost(tx.execution_cost) : ZERO_COST,
      vm_error: tx.vm_error ?? null,
      raw_tx: tx.raw_tx,
      post_conditions: decoded.post_conditions,
    },
    payload,
    events,
  });
}

/** The ABI the node reported for a deploy (under either of its names), or null. */
function deployedAbi(tx: NodeTransaction, payload: TransactionPayload): ContractAbi | null {
  if (payload.type !== 'contract_deploy') return null;
  const abi = tx.contract_abi ?? tx.contract_interface;
  return abi && typeof abi === 'object' ? (abi as ContractAbi) : null;
}

/**
 * Events by txid, each list in `event_index` order (the node sends them so; a stray one is
 * re-sorted). An entry that is no event object is noted as unreadable rather than dropped.
 */
function groupEvents(
  events: readonly NodeEvent[],
  unreadable: UnreadableTransaction[],
): Map<string, NodeEvent[]> {
  const byTx = new Map<string, NodeEvent[]>();
  let ordered = true;
  for (const event of events) {
    if (event === null || typeof event !== 'object') {
      unreadable.push({
        txid: null,
        tx_index: null,
        raw_tx: null,
        reason: 'an event is not an object',
        events: [event],
      });
      continue;
    }
    const list = byTx.get(event.txid);
    if (list) {
      if (list[list.length - 1].event_index > event.event_index) ordered = false;
      list.push(event);
    } else {
      byTx.set(event.txid, [event]);
    }
  }
  if (!ordered) for (const list of byTx.values()) list.sort((a, b) => a.event_index - b.event_index);
  return byTx;
}

/** Genesis has no parent; every other block's parent is one below it (true before and after Nakamoto). */
function parentHeight(block: NodeBlock): number {
  return block.block_height === 0 ? 0 : block.block_height - 1;
}

function blockMetadata(block: NodeBlock, transactions: readonly NodeTransaction[]): NormalizedBlockMetadata {
  const parentMicroblock =
    block.parent_microblock && !NO_MICROBLOCK.test(block.parent_microblock)
      ? { index: block.parent_microblock_sequence ?? 0, hash: block.parent_microblock }
      : null;
  let size = 0;
  for (const tx of transactions) if (typeof tx?.raw_tx === 'string') size += (tx.raw_tx.length - 2) / 2;
  return {
    burn_block_identifier: { index: block.burn_block_height, hash: block.burn_block_hash },
    burn_block_timestamp: block.burn_block_time,
    parent_microblock_identifier: parentMicroblock,
    tenure_height: block.tenure_height ?? block.block_height,
    execution_cost: block.anchored_cost ? copyCost(block.anchored_cost) : anchoredCost(transactions),
    tx_total_size: size,
    tx_count: transactions.length,
    signatures: {
      signer_bitvec: block.signer_bitvec ?? null,
      signer_signatures: block.signer_signature ?? null,
    },
  };
}

/** Old nodes send no block cost: sum what the anchored transactions (not the confirmed microblocks') cost. */
function anchoredCost(transactions: readonly NodeTransaction[]): ExecutionCost {
  const total = { read_count: 0, read_length: 0, runtime: 0, write_count: 0, write_length: 0 };
  for (const tx of transactions) {
    if (!tx || tx.microblock_hash || !tx.execution_cost) continue;
    total.read_count += tx.execution_cost.read_count;
    total.read_length += tx.execution_cost.read_length;
    total.runtime += tx.execution_cost.runtime;
    total.write_count += tx.execution_cost.write_count;
    total.write_length += tx.execution_cost.write_length;
  }
  return total;
}

/** Exactly the five fields the payload schema names, whatever else a node version adds. */
function copyCost(cost: NodeExecutionCost): ExecutionCost {
  return {
    read_count: cost.read_count,
    read_length: cost.read_length,
    runtime: cost.runtime,
    write_count: cost.write_count,
    write_length: cost.write_length,
  };
}
