import type { AppliedBlockRef, BlockRef } from '../../core/delivery/delivery-record.js';

/**
 * Whether two block lists hold the same blocks in the same order. Values are compared, not only
 * identity: each payload a block's matches make carries its own copy of the block's reference.
 */
export function sameBlocks(a: readonly BlockRef[], b: readonly BlockRef[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i].index !== b[i].index || a[i].hash !== b[i].hash) return false;
  return true;
}

/** Whether two applied-block lists hold the same blocks with the same transactions. */
export function sameApplied(a: readonly AppliedBlockRef[], b: readonly AppliedBlockRef[]): boolean {
  if (a === b) return true;
  if (!sameBlocks(a, b)) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i].tx_indexes;
    const y = b[i].tx_indexes;
    if (x.length !== y.length) return false;
    for (let j = 0; j < x.length; j++) if (x[j] !== y[j]) return false;
  }
  return true;
}
