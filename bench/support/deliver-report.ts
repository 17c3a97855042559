// Numbers and Markdown of the delivery bench: percentiles, best and median of rounds, the machine
// and how busy other work kept it.
import { readFileSync } from 'node:fs';
import { machineLine, ownCpuSeconds } from './measure.js';

/** The value at quantile `q` (0..1) of `values`, nearest-rank; NaN for none. */
export function percentile(values: readonly number[], q: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil(q * sorted.length)));
  return sorted[rank - 1];
}

/** The middle value (the mean of the two middle ones for an even count). */
export function median(values: readonly number[]): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** A number with thousands separators and `digits` decimals. */
export function fmt(value: number, digits = 0): string {
  if (!Number.isFinite(value)) return 'n/a';
  return value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

/** `best / median` of rounds (`higherIsBetter` false for times); one round prints alone. */
export function bestMedian(values: readonly number[], digits = 0, higherIsBetter = true): string {
  if (values.length === 1) return fmt(values[0], digits);
  const best = higherIsBetter ? Math.max(...values) : Math.min(...values);
  return `${fmt(best, digits)} / ${fmt(median(values), digits)}`;
}

/** `best / median` of ratios as percentages. */
export function bestMedianPercent(ratios: readonly number[]): string {
  const percent = (r: number) => `${fmt(r * 100)}%`;
  if (ratios.length === 1) return percent(ratios[0]);
  return `${percent(Math.max(...ratios))} / ${percent(median(ratios))}`;
}

/** A Markdown table with a header row; columns after the first are right-aligned. */
export function markdownTable(header: string[], rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  const rule = header.map((_, i) => (i === 0 ? '---' : '---:'));
  return [line(header), line(rule), ...rows.map(line)].join('\n');
}

/** "yes" or "**no**", so that a miss stands out. */
export function met(ok: boolean): string {
  return ok ? 'yes' : '**no**';
}

/** `/proc/loadavg` as it reads (1, 5, 15 minute load, runnable/threads, last pid), or "n/a". */
export function procLoadavg(): string {
  try {
    return readFileSync('/proc/loadavg', 'utf8').trim();
  } catch {
    return 'n/a';
  }
}

/** The 1-minute load average from /proc/loadavg, NaN where there is none. */
export function oneMinuteLoad(): number {
  return Number(procLoadavg().split(' ')[0]);
}

// CPU seconds every core of the machine has been busy since boot, from /proc/stat (USER_HZ = 100).
function machineBusySeconds(): number | undefined {
  try {
    const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    const [user, nice, system, , , irq, softirq, steal] = fields;
    return (user + nice + system + irq + softirq + steal) / 100;
  } catch {
    return undefined;
  }
}

/**
 * Start watching how busy other processes keep the machine. `stop` takes the CPU seconds the bench's
 * children used meanwhile and returns the others' average use in cores (0.5 = half a core).
 */
export function watchOtherLoad(): { stop(childCpuSeconds: number): number | undefined } {
  const busy = machineBusySeconds();
  const own = ownCpuSeconds();
  const start = performance.now();
  return {
    stop(childCpuSeconds) {
      const seconds = (performance.now() - start) / 1000;
      const now = machineBusySeconds();
      if (busy === undefined || now === undefined) return undefined;
      const other = now - busy - (ownCpuSeconds() - own) - childCpuSeconds;
      return Math.max(0, other) / seconds;
    },
  };
}

export { machineLine, ownCpuSeconds };
