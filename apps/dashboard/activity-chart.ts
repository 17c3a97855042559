import type { Api } from './api-client.js';
import type { DeliveryRecord, Page } from './api-types.js';
import { ACTIVITY_SPAN_MS, bucketActivity, type ActivityBucket } from './activity.js';
import { el, svg } from './dom.js';

// At most this many pages of the delivery log are read for the chart each time it is drawn.
const MAX_PAGES = 3;
const PAGE = 60;

/** The payloads of the last hour, newest first, as far as MAX_PAGES pages reach; `partial` when they do not. */
export async function recentDeliveries(
  api: Api,
  uuid: string,
  now: number,
): Promise<{ deliveries: DeliveryRecord[]; partial: boolean }> {
  const deliveries: DeliveryRecord[] = [];
  for (let page = 0; page < MAX_PAGES; page++) {
    const got = await api.get<Page<DeliveryRecord>>(`/me/${uuid}/deliveries`, {
      offset: page * PAGE,
      limit: PAGE,
    });
    deliveries.push(...got.results);
    const oldest = got.results.at(-1);
    if (got.results.length < PAGE || !oldest || oldest.created_at < now - ACTIVITY_SPAN_MS) {
      return { deliveries, partial: false };
    }
  }
  return { deliveries, partial: true };
}

const WIDTH = 600;
const HEIGHT = 150;

/** A bar chart of deliveries and failed attempts over the last hour, with its figures in words. */
export function activityChart(
  deliveries: readonly DeliveryRecord[],
  now: number,
  partial: boolean,
): HTMLElement {
  const buckets = bucketActivity(deliveries, now);
  const total = sum(buckets, 'deliveries');
  const failures = sum(buckets, 'failures');
  const highest = Math.max(1, ...buckets.map((b) => Math.max(b.deliveries, b.failures)));
  const slot = WIDTH / buckets.length;
  const bar = (value: number) => (HEIGHT * value) / highest;
  // The chart reads a bounded number of pages: when the hour holds more, it says what it shows.
  const newestOnly = `the newest ${deliveries.length} deliveries only: the hour holds more`;
  const words =
    `Last hour: ${total} deliveries, ${failures} failed attempts` + (partial ? ` (${newestOnly})` : '');
  const bars = buckets.flatMap((bucket, i) => [
    svg('rect', {
      class: 'deliveries',
      x: i * slot + 4,
      y: HEIGHT - bar(bucket.deliveries),
      width: slot / 2 - 5,
      height: bar(bucket.deliveries),
    }),
    svg('rect', {
      class: 'failures',
      x: i * slot + slot / 2 + 1,
      y: HEIGHT - bar(bucket.failures),
      width: slot / 2 - 5,
      height: bar(bucket.failures),
    }),
  ]);
  return el(
    'figure',
    { class: 'chart' },
    svg(
      'svg',
      // Stretched to the width it is given; the times are text below it, so they never stretch.
      { viewBox: `0 0 ${WIDTH} ${HEIGHT}`, preserveAspectRatio: 'none', role: 'img', 'aria-label': words },
      svg('line', { x1: 0, x2: WIDTH, y1: HEIGHT, y2: HEIGHT, stroke: '#6b7480', 'stroke-width': 2 }),
      bars,
    ),
    el(
      'div',
      { class: 'axis', 'aria-hidden': 'true' },
      el('span', {}, clock(buckets[0].start)),
      el('span', {}, clock(buckets[6].start)),
      el('span', {}, 'now'),
    ),
    el(
      'figcaption',
      { class: 'legend' },
      el('span', {}, el('span', { class: 'swatch deliveries' }), `${total} deliveries`),
      el('span', {}, el('span', { class: 'swatch failures' }), `${failures} failed attempts`),
      partial ? el('span', { class: 'newest-only' }, `Showing ${newestOnly}.`) : null,
    ),
  );
}

function sum(buckets: ActivityBucket[], field: 'deliveries' | 'failures'): number {
  return buckets.reduce((total, bucket) => total + bucket[field], 0);
}

function clock(ms: number): string {
  return new Date(ms).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
}
