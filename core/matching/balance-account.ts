import type { NormalizedOperation } from '../chain/operation.js';

/**
 * The account whose balance the operation changes, or undefined for an operation that moves no
 * balance. Balance-changing are the fee, token transfers (either side), mints, burns and STX locks
 * (the `balance_change` filter).
 */
export function balanceAccount(op: NormalizedOperation): string | undefined {
  switch (op.type) {
    case 'fee':
    case 'token_transfer':
    case 'token_mint':
    case 'token_burn':
    case 'stx_lock':
      return op.account.address;
    default:
      return undefined;
  }
}
