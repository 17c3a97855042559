import type { ServiceCondition } from './service-conditions.js';

/** Whether the service should get traffic, and why not: each reason a condition with when it began. */
export type Readiness = { ready: boolean; reasons: ServiceCondition[] };

/** The reason given while no block has come for longer than the allowed age. */
export const CHAIN_STALLED = 'chain_stalled';
/** The reason given while the stores cannot be read. */
export const STORES_UNREACHABLE = 'stores_unreachable';

/** What readiness is decided from, read at one moment. */
export type ReadinessInput = {
  now: number;
  /** Conditions raised in this process (an unreachable database, a full disk, no ingest lock). */
  conditions: readonly ServiceCondition[];
  /** Why reading the stores just failed, if it did. */
  storeError?: string;
  /**
   * In a process that processes blocks, with a limit set: when the last block came (undefined
   * before the first), when this process started, and the longest allowed without a block.
   */
  stall?: { lastBlockAt: number | undefined; startedAt: number; maxAgeMs: number };
};

/**
 * Ready when the stores answer, no condition is raised, and (where blocks are processed) a block
 * came within the allowed age. The age counts from the later of the last block and the start, so
 * a restart gets the full age to see its first block.
 */
export function decideReadiness(input: ReadinessInput): Readiness {
  const reasons: ServiceCondition[] = [...input.conditions];
  if (input.storeError !== undefined && !reasons.some((c) => c.name === 'database_unreachable')) {
    reasons.push({
      name: STORES_UNREACHABLE,
      reason: `the stores cannot be read: ${input.storeError}`,
      since: input.now,
    });
  }
  const stall = input.stall;
  if (stall && stall.maxAgeMs > 0) {
    const from = Math.max(stall.lastBlockAt ?? 0, stall.startedAt);
    if (input.now - from > stall.maxAgeMs) {
      const seconds = Math.round((input.now - from) / 1000);
      const last =
        stall.lastBlockAt === undefined ? 'no block has come since the start' : `no block for ${seconds}s`;
      reasons.push({
        name: CHAIN_STALLED,
        reason: `${last}, beyond the ${Math.round(stall.maxAgeMs / 1000)}s allowed: is the node running and posting to the observer?`,
        since: from + stall.maxAgeMs,
      });
    }
  }
  return { ready: reasons.length === 0, reasons };
}
