import type { NormalizedTransaction } from '../chain/block.js';
import type { TransactionEvent } from '../chain/transaction-event.js';
import { clarityJson } from '../stacks-codec/clarity-json.js';
import { mutatedRadius, v1Operations } from './v1-operations.js';
import type { V1Event, V1Transaction, V1TransactionKind } from './v1-payload.js';

/** What of a predicate changes how a transaction is shown: 1.x's `decode_clarity_values` and `include_contract_abi`. */
export type V1TransactionView = { decode_clarity_values?: boolean; include_contract_abi?: boolean };

/**
 * A transaction as 1.x posted it: its committed events typed with 1.x's names, its kind, receipt
 * and description, projected through the predicate's `view`. Pure; a new object each call.
 */
export function shapeV1Transaction(tx: NormalizedTransaction, view: V1TransactionView): V1Transaction {
  const { metadata, payload } = tx;
  const committed = tx.events.filter((event) => event.committed);
  const events: V1Event[] = committed.map((event, index) => {
    const shaped = v1Event(event);
    if (view.decode_clarity_values) decodeValues(shaped, event);
    return { ...shaped, position: { index } };
  });
  const radius = mutatedRadius(committed);
  const abi = payload.type === 'contract_deploy' && view.include_contract_abi ? payload.abi : null;
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
