import { Registry, collectDefaultMetrics } from 'prom-client';

/** The Prometheus text format's content type, for the `/metrics` answer. */
export const METRICS_CONTENT_TYPE = Registry.PROMETHEUS_CONTENT_TYPE;

/**
 * prom-client's gauges named like counters, which `promtool check metrics` refuses; each is the sum
 * of a gauge kept beside it by type (`nodejs_active_handles{type}`), so nothing is lost.
 */
const MISNAMED_DEFAULTS = [
  'nodejs_active_handles_total',
  'nodejs_active_requests_total',
  'nodejs_active_resources_total',
];

/**
 * A registry of this process's own (not prom-client's global one, so an embedding service's
 * metrics and ours never collide), with Node's process figures: CPU, memory, event loop lag, GC.
 */
export function createMetricsRegistry(): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  for (const name of MISNAMED_DEFAULTS) if (registry.getSingleMetric(name)) registry.removeSingleMetric(name);
  return registry;
}
