import type { HookOptions } from '../hooks/definition.js';

/**
 * What a payload shows of a normalized block, as bits: the seven payload options plus whether the
 * block is shown canonical (inside `apply`) or not (inside `rollback`). A number rather than an
 * object so that it indexes the per-block memo tables directly.
 */
export type PayloadView = number;

/** The bits of a PayloadView. */
export const VIEW = {
  decodeClarityValues: 1,
  contractAbi: 2,
  contractSourceCode: 4,
  postConditions: 8,
  rawTransactions: 16,
  canonical: 32,
  blockMetadata: 64,
  blockSignatures: 128,
} as const;

/** The bits that shape operations: only the decoding and the deploy options touch them. */
export const OPERATIONS_VIEW = VIEW.decodeClarityValues | VIEW.contractAbi | VIEW.contractSourceCode;

/** The bits that shape transaction metadata. */
export const TRANSACTION_METADATA_VIEW =
  VIEW.decodeClarityValues | VIEW.postConditions | VIEW.rawTransactions | VIEW.canonical;

/** The bits that shape a transaction (its operations and its metadata). */
export const TRANSACTION_VIEW = OPERATIONS_VIEW | TRANSACTION_METADATA_VIEW;

/** The view of a hook's options (unset options are off; `include_block_signatures` implies the metadata). */
export function payloadView(options: HookOptions | null | undefined): PayloadView {
  if (!options) return 0;
  let view = 0;
  if (options.decode_clarity_values) view |= VIEW.decodeClarityValues;
  if (options.include_contract_abi) view |= VIEW.contractAbi;
  if (options.include_contract_source_code) view |= VIEW.contractSourceCode;
  if (options.include_post_conditions) view |= VIEW.postConditions;
  if (options.include_raw_transactions) view |= VIEW.rawTransactions;
  if (options.include_block_metadata) view |= VIEW.blockMetadata;
  if (options.include_block_signatures) view |= VIEW.blockMetadata | VIEW.blockSignatures;
  return view;
}
