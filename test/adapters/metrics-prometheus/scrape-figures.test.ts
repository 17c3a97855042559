import { expect } from 'chai';
import { Registry } from 'prom-client';
import {
  counter,
  gauge,
  registerFigures,
  sharedRead,
  statusClass,
} from '../../../adapters/metrics-prometheus/index.js';
import { parseExposition } from '../../support/prometheus-text.js';

async function scrape(registry: Registry) {
  return parseExposition(await registry.metrics());
}

describe('registerFigures', () => {
  it('reads counters and labelled gauges at each scrape', async () => {
    const registry = new Registry();
    const counts = { sent: 3 };
    registerFigures(registry, [
      counter('t_sent_total', 'sent', () => counts.sent),
      gauge(
        't_lane',
        'by lane',
        () => [
          { labels: { lane: 'normal' }, value: 2 },
          { labels: { lane: 'slow' }, value: 0 },
        ],
        ['lane'],
      ),
    ]);
    expect((await scrape(registry)).get('t_sent_total')).to.equal(3);
    counts.sent = 5;
    const later = await scrape(registry);
    expect(later.get('t_sent_total')).to.equal(5);
    expect(later.get('t_lane{lane="normal"}')).to.equal(2);
  });

  it('keeps a figure at its last value when its read fails, and the scrape goes on', async () => {
    const registry = new Registry();
    let fail = false;
    registerFigures(registry, [
      gauge('t_pending', 'pending', async () => {
        if (fail) throw new Error('database away');
        return 7;
      }),
      gauge('t_other', 'other', () => 1),
    ]);
    expect((await scrape(registry)).get('t_pending')).to.equal(7);
    fail = true;
    const during = await scrape(registry);
    expect(during.get('t_pending')).to.equal(7);
    expect(during.get('t_other')).to.equal(1);
  });
});

describe('sharedRead', () => {
  it('reads once for every figure of one scrape, and again after a failure', async () => {
    let reads = 0;
    let fail = true;
    const read = sharedRead(async () => {
      reads++;
      if (fail) throw new Error('no');
      return reads;
    });
    await read().catch(() => undefined);
    fail = false;
    expect(await Promise.all([read(), read(), read()])).to.deep.equal([2, 2, 2]);
    expect(reads).to.equal(2);
  });
});

describe('statusClass', () => {
  it('names the class of an answer, a timeout, or no answer', () => {
    expect([
      statusClass(204, false),
      statusClass(503, false),
      statusClass(null, true),
      statusClass(null, false),
    ]).to.deep.equal(['2xx', '5xx', 'timeout', 'no_answer']);
  });
});
