import type { NormalizedTransaction } from './block.js';
import type { TransactionPayload, TransactionStatus } from './transaction-payload.js';
import type { Currency, NormalizedOperation, OperationAmount } from './operation.js';
import type { TransactionEvent } from './transaction-event.js';

/** STX, as every STX amount names it. Shared and frozen: normalized blocks are read-only. */
export const STX_CURRENCY: Currency = Object.freeze({ symbol: 'STX', decimals: 6 });

/** What the operations of one transaction are built from. */
export type OperationSource = {
  status: TransactionStatus;
  sender: string;
  sponsor: string | null;
  fee: string;
  payload: TransactionPayload;
  /** The contract's ABI as JSON text, for a deploy. */
  abiJson: string | null;
  events: readonly TransactionEvent[];
};

/** A normalized transaction without its operations, which its other fields determine. */
export type TransactionWithoutOperations = Omit<NormalizedTransaction, 'operations'>;

/**
 * The transaction with its operations built from its own fields: normalization builds them so, and
 * the archive, which stores transactions without them (they are half of a block's JSON), again.
 */
export function withOperations(tx: TransactionWithoutOperations): NormalizedTransaction {
  const { metadata, payload } = tx;
  const abi = payload.type === 'contract_deploy' ? payload.abi : null;
  return {
    transaction_identifier: tx.transaction_identifier,
    operations: buildOperations({
      status: metadata.status,
      sender: metadata.sender_address,
      sponsor: metadata.sponsor_address,
      fee: metadata.fee_rate,
      payload,
      abiJson: abi ? JSON.stringify(abi) : null,
      events: tx.events,
    }),
    metadata,
    payload,
    events: tx.events,
  };
}

/**
 * A transaction's operations in the order of Hiro's payloads: the fee (when above 0; paid by the
 * sponsor when sponsored), the transaction's own operation (none for an STX transfer: its
 * transfer event says it), then one or two per committed event in event order. Uncommitted
 * events are effects that never happened, so they make no operation.
 */
export function buildOperations(source: OperationSource): NormalizedOperation[] {
  const { status, sender, payload } = source;
  const ops: NormalizedOperation[] = [];
  if (source.fee !== '0') {
    ops.push({
      operation_identifier: { index: ops.length },
      status,
      type: 'fee',
      account: { address: source.sponsor ?? sender },
      amount: { value: negate(source.fee), currency: STX_CURRENCY },
      metadata: { sponsored: source.sponsor !== null },
    });
  }
  switch (payload.type) {
    case 'contract_call':
      ops.push({
        operation_identifier: { index: ops.length },
        status,
        type: 'contract_call',
        account: { address: sender },
        metadata: {
          contract_identifier: payload.contract_identifier,
          function_name: payload.function_name,
          args: payload.args,
        },
      });
      break;
    case 'contract_deploy':
      ops.push({
        operation_identifier: { index: ops.length },
        status,
        type: 'contract_deploy',
        account: { address: sender },
        metadata: {
          contract_identifier: payload.contract_identifier,
          clarity_version: payload.clarity_version,
          source_code: payload.source_code,
          abi: source.abiJson,
        },
      });
      break;
    case 'coinbase':
      ops.push({
        operation_identifier: { index: ops.length },
        status,
        type: 'coinbase',
        account: { address: sender },
        metadata: { alt_recipient: payload.alt_recipient, vrf_proof: payload.vrf_proof },
      });
      break;
    case 'tenure_change': {
      const { type: _type, ...metadata } = payload;
      ops.push({ operation_identifier: { index: ops.length }, status, type: 'tenure_change', metadata });
      break;
    }
    case 'poison_microblock':
      ops.push({
        operation_identifier: { index: ops.length },
        status,
        type: 'poison_microblock',
        account: { address: sender },
        metadata: {
          microblock_header_1: payload.microblock_header_1,
          microblock_header_2: payload.microblock_header_2,
        },
      });
      break;
    case 'token_transfer':
      break;
  }
  for (const event of source.events) {
    if (event.committed) pushEventOperations(ops, status, event);
  }
  return ops;
}

// Module functions rather than closures built per event: this runs for every event of every block.
function pushEventOperations(
  ops: NormalizedOperation[],
  status: TransactionStatus,
  event: TransactionEvent,
): void {
  switch (event.type) {
    case 'stx_transfer': {
      const amount = { value: event.amount, currency: STX_CURRENCY };
      pushTransfer(ops, status, event.sender, event.recipient, amount, { memo: event.memo });
      break;
    }
    case 'ft_transfer':
      pushTransfer(ops, status, event.sender, event.recipient, {
        value: event.amount,
        currency: ftCurrency(event.asset_identifier),
      });
      break;
    case 'nft_transfer':
      pushTransfer(ops, status, event.sender, event.recipient, {
        value: '1',
        currency: nftCurrency(event.asset_identifier, event.value.hex),
      });
      break;
    case 'stx_mint':
    case 'ft_mint':
    case 'nft_mint':
      ops.push({
        operation_identifier: { index: ops.length },
        status,
        type: 'token_mint',
        account: { address: event.recipient },
        amount: eventAmount(event),
      });
      break;
    case 'stx_burn':
    case 'ft_burn':
    case 'nft_burn': {
      const amount = eventAmount(event);
      ops.push({
        operation_identifier: { index: ops.length },
        status,
        type: 'token_burn',
        account: { address: event.sender },
        amount: { value: negate(amount.value), currency: amount.currency },
      });
      break;
    }
    case 'stx_lock':
      ops.push({
        operation_identifier: { index: ops.length },
        status,
        type: 'stx_lock',
        account: { address: event.locked_address },
        amount: { value: event.locked_amount, currency: STX_CURRENCY },
        metadata: {
          unlock_height: event.unlock_height,
          locked_address: event.locked_address,
          // The field holds the name; the deployer is always the network's boot address.
          contract_name: event.contract_identifier.slice(event.contract_identifier.indexOf('.') + 1),
        },
      });
      break;
    case 'contract_log':
      ops.push({
        operation_identifier: { index: ops.length },
        status,
        type: 'contract_log',
        metadata: { contract_identifier: event.contract_identifier, topic: event.topic, value: event.value },
      });
      break;
  }
}

/** A transfer: the debit of the sender, then the credit of the recipient; STX transfers carry the memo. */
function pushTransfer(
  ops: NormalizedOperation[],
  status: TransactionStatus,
  sender: string,
  recipient: string,
  amount: OperationAmount,
  metadata?: { memo: string | null },
): void {
  const debit = { value: negate(amount.value), currency: amount.currency };
  if (metadata) {
    ops.push({
      operation_identifier: { index: ops.length },
      status,
      type: 'token_transfer',
      account: { address: sender },
      amount: debit,
      metadata,
    });
    ops.push({
      operation_identifier: { index: ops.length },
      status,
      type: 'token_transfer',
      account: { address: recipient },
      amount,
      metadata,
    });
  } else {
    ops.push({
      operation_identifier: { index: ops.length },
      status,
      type: 'token_transfer',
      account: { address: sender },
      amount: debit,
    });
    ops.push({
      operation_identifier: { index: ops.length },
      status,
      type: 'token_transfer',
      account: { address: recipient },
      amount,
    });
  }
}

function eventAmount(
  event: Extract<
    TransactionEvent,
    { type: 'stx_mint' | 'ft_mint' | 'nft_mint' | 'stx_burn' | 'ft_burn' | 'nft_burn' }
  >,
): OperationAmount {
  switch (event.type) {
    case 'stx_mint':
    case 'stx_burn':
      return { value: event.amount, currency: STX_CURRENCY };
    case 'ft_mint':
    case 'ft_burn':
      return { value: event.amount, currency: ftCurrency(event.asset_identifier) };
    case 'nft_mint':
    case 'nft_burn':
      return { value: '1', currency: nftCurrency(event.asset_identifier, event.value.hex) };
  }
}

function ftCurrency(assetIdentifier: string): Currency {
  return { symbol: '', decimals: 0, metadata: { asset_identifier: assetIdentifier, token_type: 'ft' } };
}

function nftCurrency(assetIdentifier: string, valueHex: string): Currency {
  return {
    symbol: '',
    decimals: 0,
    metadata: { asset_identifier: assetIdentifier, value: valueHex, token_type: 'nft' },
  };
}

/** The other sign of a decimal amount ("0" stays "0"): a debit of what an event moved. */
function negate(value: string): string {
  if (value === '0') return value;
  return value.startsWith('-') ? value.slice(1) : `-${value}`;
}
