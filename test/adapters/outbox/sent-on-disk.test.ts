import { expect } from 'chai';
import type { PayloadSegments } from '../../../adapters/outbox/payload-segments.js';
import { SentOnDisk } from '../../../adapters/outbox/sent-on-disk.js';
import { segmentsPerTest } from '../../support/segments-folder.js';

describe('SentOnDisk', () => {
  let segments: PayloadSegments;
  segmentsPerTest((opened) => (segments = opened));

  it('keeps the records of its newest blocks up to its limit, letting go of the oldest', () => {
    const disk = new SentOnDisk(segments, 3);
    for (let n = 1; n <= 10; n++) disk.moved(`0x0${n}`, disk.put([['a', [n]]]), false);
    expect(disk.size).to.equal(3);
    expect(disk.has('0x07')).to.equal(false);
    expect([...disk.read('0x010')]).to.deep.equal([['a', [10]]]);
    // Only the kept records are referenced, so the segments of the others can go.
    expect([...segments.references().values()].reduce((a, b) => a + b, 0)).to.equal(3);
  });

  it('reads a block from all its records, a later one winning for a hook, and replaces them when asked', () => {
    const disk = new SentOnDisk(segments);
    disk.moved(
      '0x01',
      disk.put([
        ['a', [0]],
        ['b', [1]],
      ]),
      false,
    );
    disk.moved('0x01', disk.put([['a', [2]]]), false);
    expect([...disk.read('0x01')]).to.deep.equal([
      ['a', [2]],
      ['b', [1]],
    ]);
    disk.moved('0x01', disk.put([['b', [1]]]), true);
    expect([...disk.read('0x01')]).to.deep.equal([['b', [1]]]);
    disk.moved('0x01', null, true);
    expect(disk.has('0x01')).to.equal(false);
    expect(segments.references().size).to.equal(0);
  });
});
