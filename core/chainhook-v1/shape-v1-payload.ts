import type { NormalizedBlock, NormalizedTransaction } from '../chain/block.js';
import type { TransactionEvent } from '../chain/transaction-event.js';
import type { Network } from '../hooks/definition.js';
import type { BlockMatch } from '../payload/shape-payload.js';
import type { WebhookPayload } from '../payload/webhook-payload.js';
import { clarityJson } from '../stacks-codec/clarity-json.js';
import type { NetworkPredicate } from './predicate.js';
import { mutatedRadius, v1Operations } from './v1-operations.js';
import type { ChainhookV1Payload, V1Block, V1Event, V1Transaction, V1TransactionKind } from './v1-payload.js';

/** What one 1.x body is made from: the predicate, the network, and the matched blocks of one chain update. */
export type V1ShapeInput = {
  uuid: string;
  predicate: NetworkPredicate;
  network: Network;
  /** Blocks joining the canonical chain, oldest first. */
  apply: readonly BlockMatch[];
  /** Blocks leaving the canonical chain, newest first. */
  rollback: readonly BlockMatch[];
  /** Whether the blocks come from the live stream (`is_streaming_blocks`); false for a scan of history. */
  streaming?: boolean;
};

// The networks' PoX constants (first burn height of cycle 0, cycle length), as the node's /v2/pox reports them.
const POX: Record<Network, { first: number; length: number }> = {
  mainnet: { first: 666_050, length: 2_100 },
  testnet: { first: 2_000_001, length: 1_050 },
};

/**
 * The body 1.x posted for one chain update, built from the normalized blocks every payload is built
 * from: each block with its matched transactions, each with its committed events typed as 1.x typed
 * them. Pure; the result shares nothing mutable with the blocks.
 */
export function shapeV1Payload(input: V1ShapeInput): ChainhookV1Payload {
  const blocks = (matches: readonly BlockMatch[]) =>
    matches.map(({ block, txIndexes }) => v1Block(block, txIndexes, input));
  return {
    apply: blocks(input.apply),
    rollback: blocks(input.rollback),
    chainhook: {
      uuid: input.uuid,
      predicate: input.predicate.if_this,
      is_streaming_blocks: input.streaming ?? true,
    },
    events: [],
  };
}

function v1Block(block: NormalizedBlock, txIndexes: readonly number[], input: V1ShapeInput): V1Block {
  const { metadata } = block;
  const pox = POX[input.network];
  const sinceFirst = Math.max(0, metadata.burn_block_identifier.index - pox.first);
  return {
    block_identifier: block.block_identifier,
    parent_block_identifier: block.parent_block_identifier,
    timestamp: metadata.burn_block_timestamp,
    transactions: txIndexes.map((i) => v1Transaction(block.transactions[i]!, input.predicate)),
    metadata: {
      bitcoin_anchor_block_identifier: metadata.burn_block_identifier,
      confirm_microblock_identifier: metadata.parent_microblock_identifier,
      pox_cycle_index: Math.floor(sinceFirst / pox.length),
      pox_cycle_length: pox.length,
      pox_cycle_position: sinceFirst % pox.length,
      stacks_block_hash: block.block_identifier.hash,
      block_time: block.timestamp,
      tenure_height: metadata.tenure_height,
      cycle_number: null,
      reward_set: null,
      signer_bitvec: metadata.signatures.signer_bitvec,
      signer_signature: metadata.signatures.signer_signatures,
      signer_public_keys: null,
    },
  };
}

function v1Transaction(tx: NormalizedTransaction, predicate: NetworkPredicate): V1Transaction {
  const { metadata, payload } = tx;
  const committed = tx.events.filter((event) => event.committed);
  const events: V1Event[] = committed.map((event, index) => {
    const shaped = v1Event(event);
    if (predicate.decode_clarity_values) decodeValues(shaped, event);
    return { ...shaped, position: { index } };
  });
  const radius = mutatedRadius(committed);
  const abi = payload.type === 'contract_deploy' && predicate.include_contract_abi ? payload.abi : null;
  return {
    transaction_identifier: tx.transaction_identifier,
    operations: v1Operations(committed),
    metadata: {
      description: describe(tx),
      execution_cost: metadata.execution_cost,
      fee: Number(metadata.fee_rate),
      kind: kindOf(tx),
      nonce: metadata.nonce,
      position: { index: metadata.position.index },
      proof: null,
      raw_tx: metadata.raw_tx,
      receipt: {
        contract_calls_stack: [],
        events,
        mutated_assets_radius: radius.assets,
        mutated_contracts_radius: radius.contracts,
      },
      result: metadata.result.repr,
      sender: metadata.sender_address,
      ...(metadata.sponsor_address !== null && { sponsor: metadata.sponsor_address }),
      success: metadata.status === 'success',
      ...(abi && { contract_abi: abi }),
    },
  };
}

function kindOf({ payload }: NormalizedTransaction): V1TransactionKind {
  switch (payload.type) {
    case 'token_transfer':
      return { type: 'NativeTokenTransfer' };
    case 'contract_call':
      return {
        type: 'ContractCall',
        data: {
          args: payload.args.map((arg) => arg.repr),
          contract_identifier: payload.contract_identifier,
          method: payload.function_name,
        },
      };
    case 'contract_deploy':
      return {
        type: 'ContractDeployment',
        data: { contract_identifier: payload.contract_identifier, code: payload.source_code },
      };
    case 'coinbase':
      return { type: 'Coinbase' };
    case 'tenure_change':
      return { type: 'TenureChange' };
    case 'poison_microblock':
      return { type: 'Unsupported' };
  }
}

function describe({ payload, metadata }: NormalizedTransaction): string {
  switch (payload.type) {
    case 'token_transfer':
      return `transfered: ${payload.amount} µSTX from ${metadata.sender_address} to ${payload.recipient}`;
    case 'contract_call':
      return `invoked: ${payload.contract_identifier}::${payload.function_name}(${payload.args.map((a) => a.repr).join(', ')})`;
    case 'contract_deploy':
      return `deployed: ${payload.contract_identifier}`;
    case 'coinbase':
      return 'coinbase';
    case 'tenure_change':
      return 'tenure change';
    case 'poison_microblock':
      return 'poison microblock';
  }
}

/**
 * `decode_clarity_values`: 1.x's decoded value beside the hex, never instead of it. 1.x replaced a
 * print's `raw_value` with `value`, and an NFT event's `asset_identifier` with the decoded token id
 * (the class moving to `asset_class_identifier`); the client's own schema wants `raw_value` and a
 * string `asset_identifier` on every such event, so both stay, and the decoded value is added as
 * `value`, with `asset_class_identifier` on NFT events.
 */
function decodeValues(shaped: Omit<V1Event, 'position'>, event: TransactionEvent): void {
  if (event.type === 'contract_log') shaped.data.value = clarityJson(event.value.hex);
  else if (event.type === 'nft_transfer' || event.type === 'nft_mint' || event.type === 'nft_burn') {
    shaped.data.asset_class_identifier = event.asset_identifier;
    shaped.data.value = clarityJson(event.value.hex);
  }
}

function v1Event(event: TransactionEvent): Omit<V1Event, 'position'> {
  switch (event.type) {
    case 'stx_transfer':
      return {
        type: 'STXTransferEvent',
        data: { amount: event.amount, sender: event.sender, recipient: event.recipient },
      };
    case 'stx_mint':
      return { type: 'STXMintEvent', data: { amount: event.amount, recipient: event.recipient } };
    case 'stx_burn':
      return { type: 'STXBurnEvent', data: { amount: event.amount, sender: event.sender } };
    case 'stx_lock':
      return {
        type: 'STXLockEvent',
        data: {
          locked_amount: event.locked_amount,
          unlock_height: String(event.unlock_height),
          locked_address: event.locked_address,
        },
      };
    case 'ft_transfer':
      return {
        type: 'FTTransferEvent',
        data: {
          amount: event.amount,
          asset_identifier: event.asset_identifier,
          recipient: event.recipient,
          sender: event.sender,
        },
      };
    case 'ft_mint':
      return {
        type: 'FTMintEvent',
        data: { amount: event.amount, asset_identifier: event.asset_identifier, recipient: event.recipient },
      };
    case 'ft_burn':
      return {
        type: 'FTBurnEvent',
        data: { amount: event.amount, asset_identifier: event.asset_identifier, sender: event.sender },
      };
    case 'nft_transfer':
      return {
        type: 'NFTTransferEvent',
        data: {
          asset_identifier: event.asset_identifier,
          raw_value: event.value.hex,
          recipient: event.recipient,
          sender: event.sender,
        },
      };
    case 'nft_mint':
      return {
        type: 'NFTMintEvent',
        data: {
          asset_identifier: event.asset_identifier,
          raw_value: event.value.hex,
          recipient: event.recipient,
        },
      };
    case 'nft_burn':
      return {
        type: 'NFTBurnEvent',
        data: { asset_identifier: event.asset_identifier, raw_value: event.value.hex, sender: event.sender },
      };
    case 'contract_log':
      return {
        type: 'SmartContractEvent',
        data: {
          contract_identifier: event.contract_identifier,
          raw_value: event.value.hex,
          topic: event.topic,
        },
      };
  }
}

/**
 * A 1.x body as the outbox carries it. The outbox, the delivery log and the sender only store and
 * serialize a body (`serializePayload` writes any layout but the 2.0 one whole), so a 1.x body goes
 * through them unchanged; typing the queue's body as a union would make every reader of 2.0 bodies
 * narrow it, for a field only the live step writes.
 */
export function queuedV1Body(body: ChainhookV1Payload): WebhookPayload {
  return body as unknown as WebhookPayload;
}
