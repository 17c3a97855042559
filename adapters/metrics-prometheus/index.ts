export { EventMetrics, statusClass } from './event-metrics.js';
export { METRICS_CONTENT_TYPE, createMetricsRegistry } from './metrics-registry.js';
export { counter, gauge, registerFigures, sharedRead, type Figure, type Sample } from './scrape-figures.js';
