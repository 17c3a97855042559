/** Samples of a Prometheus text exposition, keyed `name{label="value",…}` with labels in name order. */
export type Exposition = Map<string, number>;

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)(?:\s+\d+)?$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

/** Parse the text format (version 0.0.4): every sample line, comments skipped. */
export function parseExposition(text: string): Exposition {
  const samples: Exposition = new Map();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = SAMPLE.exec(line);
    if (!match) throw new Error(`not a sample line: ${line}`);
    const labels = [...(match[2] ?? '').matchAll(LABEL)].map(([, name, value]) => [name, value]);
    labels.sort(([a], [b]) => a.localeCompare(b));
    const key =
      labels.length === 0 ? match[1] : `${match[1]}{${labels.map(([n, v]) => `${n}="${v}"`).join(',')}}`;
    samples.set(key, Number(match[3]));
  }
  return samples;
}

/** One sample's value; throws naming the sample when the exposition lacks it. */
export function sample(exposition: Exposition, name: string, labels: Record<string, string> = {}): number {
  const entries = Object.entries(labels).sort(([a], [b]) => a.localeCompare(b));
  const key = entries.length === 0 ? name : `${name}{${entries.map(([n, v]) => `${n}="${v}"`).join(',')}}`;
  const value = exposition.get(key);
  if (value === undefined) {
    const near = [...exposition.keys()].filter((k) => k.startsWith(name)).join('\n  ');
    throw new Error(`no sample ${key} in the exposition; ${name}… has:\n  ${near || '(nothing)'}`);
  }
  return value;
}
