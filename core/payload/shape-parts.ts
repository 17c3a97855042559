import type { NormalizedBlockMetadata, NormalizedTransactionMetadata } from '../chain/block.js';
import type { ClarityValueRepr } from '../chain/clarity-value.js';
import type { NormalizedOperation } from '../chain/operation.js';
import { VIEW, type PayloadView } from './payload-view.js';
import type {
  PayloadBlockMetadata,
  PayloadClarityValue,
  PayloadContractDeployOperation,
  PayloadOperation,
  PayloadTransactionMetadata,
} from './webhook-payload.js';

// The projections of a normalized block's parts onto a payload view (block.ts says how each option
// maps). Whatever already has the payload's exact shape is shared, not copied: normalized blocks
// and payloads are both read-only.

/**
 * The operations of one transaction in a view. Only contract calls, deploys and prints depend on
 * options; a transaction without them gets its normalized operations array back, shared.
 */
export function shapeOperations(
  operations: readonly NormalizedOperation[],
  view: PayloadView,
): PayloadOperation[] {
  let shaped: PayloadOperation[] | undefined;
  for (let i = 0; i < operations.length; i++) {
    const op = operations[i];
    const out = shapeOperation(op, view);
    if (shaped === undefined && out !== op) shaped = operations.slice(0, i) as PayloadOperation[];
    if (shaped !== undefined) shaped.push(out);
  }
  return shaped ?? (operations as PayloadOperation[]);
}

function shapeOperation(op: NormalizedOperation, view: PayloadView): PayloadOperation {
  switch (op.type) {
    case 'contract_call': {
      // Decoded args already are `{hex, repr, name, type}`: the operation is shared as it is.
      if (view & VIEW.decodeClarityValues) return op;
      const { contract_identifier, function_name, args } = op.metadata;
      return {
        operation_identifier: op.operation_identifier,
        status: op.status,
        type: op.type,
        account: op.account,
        metadata: { contract_identifier, function_name, args: joinArgs(args) },
      };
    }
    case 'contract_deploy': {
      const { contract_identifier, clarity_version, source_code, abi } = op.metadata;
      const metadata: PayloadContractDeployOperation['metadata'] = { contract_identifier, clarity_version };
      if (view & VIEW.contractSourceCode) metadata.source_code = source_code;
      if (view & VIEW.contractAbi && abi !== null) metadata.abi = abi;
      return {
        operation_identifier: op.operation_identifier,
        status: op.status,
        type: op.type,
        account: op.account,
        metadata,
      };
    }
    case 'contract_log': {
      const { contract_identifier, topic, value } = op.metadata;
      return {
        operation_identifier: op.operation_identifier,
        status: op.status,
        type: op.type,
        metadata: { contract_identifier, topic, value: clarityValue(value, view) },
      };
    }
    default:
      return op;
  }
}

/** The arguments' serializations in order (each is self-delimiting), as one `0x` string; null when none. */
function joinArgs(args: readonly { hex: string }[]): string | null {
  if (args.length === 0) return null;
  let joined = '0x';
  for (const arg of args) joined += arg.hex.slice(2);
  return joined;
}

/** `0x` hex, or `{hex, repr}` when decoding (the normalized value's inferred `type` is not a payload field). */
function clarityValue(value: ClarityValueRepr, view: PayloadView): PayloadClarityValue {
  return view & VIEW.decodeClarityValues ? { hex: value.hex, repr: value.repr } : value.hex;
}

/** A transaction's metadata in a view: chain-state flags added, option-gated fields only when asked. */
export function shapeTransactionMetadata(
  metadata: NormalizedTransactionMetadata,
  view: PayloadView,
): PayloadTransactionMetadata {
  const canonical = (view & VIEW.canonical) !== 0;
  const shaped: PayloadTransactionMetadata = {
    type: metadata.type,
    status: metadata.status,
    result: clarityValue(metadata.result, view),
    sender_address: metadata.sender_address,
    sponsor_address: metadata.sponsor_address,
    sponsored: metadata.sponsored,
    fee_rate: metadata.fee_rate,
    nonce: metadata.nonce,
    position: metadata.position,
    execution_cost: metadata.execution_cost,
    vm_error: metadata.vm_error,
    canonical,
    microblock_canonical: canonical,
  };
  if (view & VIEW.rawTransactions) shaped.raw_tx = metadata.raw_tx;
  if (view & VIEW.postConditions) shaped.post_conditions = metadata.post_conditions;
  return shaped;
}

/** The block metadata in a view that shows it: `canonical` added, `signatures` only when asked. */
export function shapeBlockMetadata(
  metadata: NormalizedBlockMetadata,
  view: PayloadView,
): PayloadBlockMetadata {
  const shaped: PayloadBlockMetadata = {
    canonical: (view & VIEW.canonical) !== 0,
    burn_block_identifier: metadata.burn_block_identifier,
    burn_block_timestamp: metadata.burn_block_timestamp,
    parent_microblock_identifier: metadata.parent_microblock_identifier,
    tenure_height: metadata.tenure_height,
    execution_cost: metadata.execution_cost,
    tx_total_size: metadata.tx_total_size,
    tx_count: metadata.tx_count,
  };
  if (view & VIEW.blockSignatures) shaped.signatures = metadata.signatures;
  return shaped;
}
