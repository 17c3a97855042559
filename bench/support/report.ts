// Markdown output of the benches: numbers formatted for reading, cells holding best and median.
import { summarize } from './measure.js';

/** A number with thousands separators and `digits` decimals. */
export function fmt(value: number, digits = 0): string {
  return value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

/** `best / median` of the rounds, formatted; `higherIsBetter` false for times and memory. */
export function bestMedian(values: number[], digits = 0, higherIsBetter = true): string {
  if (values.length === 1) return fmt(values[0], digits);
  const { best, median } = summarize(values, higherIsBetter);
  return `${fmt(best, digits)} / ${fmt(median, digits)}`;
}

/** A percentage cell: `best / median` of ratios. */
export function bestMedianPercent(ratios: number[]): string {
  if (ratios.length === 1) return `${fmt(ratios[0] * 100)}%`;
  const { best, median } = summarize(ratios);
  return `${fmt(best * 100)}% / ${fmt(median * 100)}%`;
}

/** A Markdown table with a header row. */
export function markdownTable(header: string[], rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  const rule = header.map((_, i) => (i === 0 ? '---' : '---:'));
  return [line(header), line(rule), ...rows.map(line)].join('\n');
}

/** "yes" or "**no**", so that a miss stands out in the pasted table. */
export function met(ok: boolean): string {
  return ok ? 'yes' : '**no**';
}
