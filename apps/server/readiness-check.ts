import { decideReadiness, type Readiness } from '../../core/health/readiness.js';
import type { ServiceConditions } from '../../core/health/service-conditions.js';
import type { IngestProgress } from '../../core/use-cases/ingest-progress.js';

/** The longest the stores may take to answer a readiness check before it counts as a failure. */
const STORE_TIMEOUT_MS = 3_000;

/** What a readiness check reads. */
export type ReadinessSources = {
  /** A fresh read of the stores: it fails (or times out) when they cannot be read. */
  progress: () => Promise<IngestProgress>;
  conditions: ServiceConditions;
  now: () => number;
  /** Where blocks are processed and a limit is set: the allowed age and when this process started. */
  stall?: { maxAgeMs: number; startedAt: number };
};

/**
 * Check readiness now: read the stores (a database that does not answer within 3 s makes the
 * service unready, even before its condition is raised), then decide from the conditions and the
 * last block's age.
 */
export async function checkReadiness(sources: ReadinessSources): Promise<Readiness> {
  let progress: IngestProgress | undefined;
  let storeError: string | undefined;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`no answer within ${STORE_TIMEOUT_MS / 1000}s`)),
      STORE_TIMEOUT_MS,
    );
  });
  try {
    progress = await Promise.race([sources.progress(), late]);
  } catch (err) {
    storeError = err instanceof Error ? err.message : String(err);
  } finally {
    clearTimeout(timer);
  }
  const { stall } = sources;
  return decideReadiness({
    now: sources.now(),
    conditions: sources.conditions.list(),
    ...(storeError !== undefined && { storeError }),
    // Without a read there is no last block to judge by; the failed read is the reason already.
    ...(stall && progress && { stall: { ...stall, lastBlockAt: progress.lastBlockAt } }),
  });
}
