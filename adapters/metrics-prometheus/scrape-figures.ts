import { Counter, Gauge, type Registry } from 'prom-client';

/** One value of a labelled figure. */
export type Sample = { labels: Record<string, string>; value: number };

/**
 * A figure read when Prometheus scrapes, from numbers kept elsewhere (plain counter objects, a
 * store's summary): adding one is one entry in a list. A read that fails or answers undefined
 * leaves the figure as it was at the last scrape.
 */
export type Figure = {
  /** The full metric name (`stackhooks_…`; a counter's ends in `_total`). */
  name: string;
  help: string;
  type: 'counter' | 'gauge';
  labelNames?: readonly string[];
  read: () => number | Sample[] | undefined | Promise<number | Sample[] | undefined>;
};

/** The longest a figure's read may take before the scrape goes on without it. */
const READ_TIMEOUT_MS = 2_000;

/** Register figures read at each scrape. */
export function registerFigures(registry: Registry, figures: readonly Figure[]): void {
  for (const figure of figures) {
    const Metric = figure.type === 'counter' ? Counter : Gauge;
    new Metric({
      name: figure.name,
      help: figure.help,
      labelNames: figure.labelNames ?? [],
      registers: [registry],
      async collect() {
        const value = await readInTime(figure);
        if (value === undefined) return;
        this.reset();
        const metric = this as unknown as {
          inc(labels: object, value: number): void;
          set(labels: object, value: number): void;
        };
        const write = (labels: Record<string, string>, v: number) =>
          figure.type === 'counter' ? metric.inc(labels, Math.max(0, v)) : metric.set(labels, v);
        if (typeof value === 'number') write({}, value);
        else for (const sample of value) write(sample.labels, sample.value);
      },
    });
  }
}

async function readInTime(figure: Figure): Promise<number | Sample[] | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), READ_TIMEOUT_MS);
  });
  try {
    return await Promise.race([Promise.resolve().then(figure.read), late]);
  } catch {
    // A store that cannot answer now (a database outage) must not fail the whole scrape.
    return undefined;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * `read` called at most once within `ms`, its answer shared: several figures of one scrape read
 * one snapshot (one round of store queries, not one per figure).
 */
export function sharedRead<T>(read: () => Promise<T>, ms = 1_000): () => Promise<T> {
  let last: { at: number; value: Promise<T> } | undefined;
  return () => {
    const now = Date.now();
    if (!last || now - last.at > ms) {
      const value = read();
      value.catch(() => (last = undefined));
      last = { at: now, value };
    }
    return last.value;
  };
}

/** A gauge read at scrape time. */
export function gauge(
  name: string,
  help: string,
  read: Figure['read'],
  labelNames?: readonly string[],
): Figure {
  return { name, help, type: 'gauge', read, labelNames };
}

/** A counter read at scrape time from a number that only grows. */
export function counter(
  name: string,
  help: string,
  read: () => number | Sample[],
  labelNames?: readonly string[],
): Figure {
  return { name, help, type: 'counter', read, labelNames };
}
