import { expect } from 'chai';
import fc from 'fast-check';
import { MetaText } from '../../../adapters/outbox/meta-text.js';
import { metaOf, type PayloadMeta } from '../../../adapters/outbox/outbox-entry.js';

// Strings with quotes, backslashes, control characters and lone surrogates: what JSON must escape.
const text = fc.string({ unit: 'binary', maxLength: 12 });
const number = fc.oneof(fc.integer(), fc.double(), fc.constantFrom(-0, 1e21, Number.NaN, Infinity));
const block = { index: number, hash: fc.oneof(text, fc.constant('0xabc')) };
const meta: fc.Arbitrary<PayloadMeta> = fc.record({
  id: text,
  hook_uuid: text,
  owner: text,
  url: text,
  kind: fc.constantFrom('live', 'backfill'),
  apply: fc.array(fc.record({ ...block, tx_indexes: fc.array(number, { maxLength: 3 }) }), { maxLength: 3 }),
  rollback: fc.array(fc.record(block), { maxLength: 3 }),
  created_at: number,
}) as fc.Arbitrary<PayloadMeta>;

describe('MetaText', () => {
  it('gives the text JSON.stringify gives, its closing brace left off, call after call', () => {
    fc.assert(
      fc.property(fc.array(meta, { minLength: 1, maxLength: 8 }), (metas) => {
        const texts = new MetaText();
        for (const m of metas) expect(texts.open(m)).to.equal(JSON.stringify(metaOf(m)).slice(0, -1));
      }),
    );
  });

  it('gives each payload its own block lists when they follow payloads that named others', () => {
    const texts = new MetaText();
    const base = metaOf({
      id: 'a',
      hook_uuid: 'h',
      owner: 'o',
      url: 'u',
      kind: 'live',
      apply: [{ index: 7, hash: '0x7', tx_indexes: [0, 1] }],
      rollback: [{ index: 6, hash: '0x6' }],
      created_at: 1,
    });
    const others: PayloadMeta[] = [
      base,
      { ...base, apply: [{ index: 7, hash: '0x7', tx_indexes: [0] }] },
      { ...base, apply: [{ index: 8, hash: '0x7', tx_indexes: [0] }] },
      { ...base, rollback: [] },
      { ...base, rollback: [{ index: 6, hash: '0x66' }] },
      base,
    ];
    for (const m of others) expect(texts.open(m)).to.equal(JSON.stringify(metaOf(m)).slice(0, -1));
  });
});
