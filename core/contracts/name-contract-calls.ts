import type { NormalizedBlock, NormalizedTransaction } from '../chain/block.js';
import type { AbiLookup } from '../chain/contract-abi.js';
import { withOperations } from '../chain/operations.js';
import { functionArgTypes } from '../stacks-codec/abi-signature.js';

/** Whether a transaction is a contract call whose arguments went unnamed (its ABI was unknown). */
export function hasUnnamedArgs(tx: NormalizedTransaction): boolean {
  const { payload } = tx;
  return payload.type === 'contract_call' && payload.args.length > 0 && payload.args[0].name === '';
}

/** The contracts whose calls in `block` went unnamed. */
export function unnamedCallContracts(block: NormalizedBlock): Set<string> {
  const ids = new Set<string>();
  for (const tx of block.transactions) {
    if (hasUnnamedArgs(tx) && tx.payload.type === 'contract_call') ids.add(tx.payload.contract_identifier);
  }
  return ids;
}

/**
 * The block with the arguments of its unnamed calls named and typed from ABIs `lookupAbi` knows
 * now (learned after the block was archived); the block itself when there is nothing to name.
 * Normalized blocks are shared and read-only: a changed transaction is a new object.
 */
export function nameContractCalls(block: NormalizedBlock, lookupAbi: AbiLookup): NormalizedBlock {
  let transactions: NormalizedTransaction[] | undefined;
  block.transactions.forEach((tx, index) => {
    const named = nameCall(tx, lookupAbi);
    if (named === tx) return;
    transactions ??= [...block.transactions];
    transactions[index] = named;
  });
  return transactions ? { ...block, transactions } : block;
}

function nameCall(tx: NormalizedTransaction, lookupAbi: AbiLookup): NormalizedTransaction {
  const { payload } = tx;
  if (!hasUnnamedArgs(tx) || payload.type !== 'contract_call') return tx;
  const abi = lookupAbi(payload.contract_identifier);
  const typed = abi && functionArgTypes(abi, payload.function_name, payload.args.length);
  if (!typed) return tx;
  const args = payload.args.map((arg, i) => ({ ...arg, name: typed[i].name, type: typed[i].type }));
  return withOperations({ ...tx, payload: { ...payload, args } });
}
