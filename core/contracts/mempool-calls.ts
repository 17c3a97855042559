import type { ChainNetwork } from '../stacks-codec/network.js';
import { decodeTransaction } from '../stacks-codec/decode-transaction.js';

/**
 * Transactions of one mempool post read at most: a node posts them a few at a time, but a node
 * that starts posts its whole mempool, and reading it must not hold block intake for long.
 */
export const MEMPOOL_TRANSACTIONS_READ = 1_000;

/**
 * The contracts a `/new_mempool_tx` body (an array of raw transaction hex) calls, each once.
 * A body that is not such an array, and transactions that do not decode, give nothing.
 */
export function mempoolCalledContracts(body: string, network: ChainNetwork): Set<string> {
  const called = new Set<string>();
  let rawTxs: unknown;
  try {
    rawTxs = JSON.parse(body);
  } catch {
    return called;
  }
  if (!Array.isArray(rawTxs)) return called;
  for (const rawTx of rawTxs.slice(0, MEMPOOL_TRANSACTIONS_READ)) {
    if (typeof rawTx !== 'string') continue;
    try {
      const { payload } = decodeTransaction(rawTx, { network });
      if (payload.type === 'contract_call') called.add(payload.contract_identifier);
    } catch {
      // Not a transaction this version reads: the block that mines it says what it is.
    }
  }
  return called;
}
