import { setFlagsFromString } from 'node:v8';

/**
 * How far the main thread's heap may grow past what the last full collection kept, in percent,
 * before the next one. V8's own factor goes up to 300% on a machine with memory to spare, and a
 * running service makes garbage at a steady rate: in a 30-minute soak the heap swung between 85 and
 * 300 MiB around a working set of about 90, and the process's resident memory with it.
 */
export const SERVER_HEAP_GROWING_PERCENT = 30;

/**
 * Bound the heap's growth between full collections for the standalone server, unless the operator
 * chose a growth already (`--heap-growing-percent` in the node flags or NODE_OPTIONS). More frequent
 * full collections cost the main thread a little CPU; the observer answers from a thread of its own.
 */
export function boundHeapGrowth(execArgv: readonly string[], nodeOptions: string | undefined): boolean {
  const chosen = [...execArgv, nodeOptions ?? ''].some((option) => option.includes('heap-growing-percent'));
  if (chosen) return false;
  setFlagsFromString(`--heap-growing-percent=${SERVER_HEAP_GROWING_PERCENT}`);
  return true;
}
