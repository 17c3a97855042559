import { rm } from 'node:fs/promises';
import { expect } from 'chai';
import { PayloadSegments, type Locator } from '../../../adapters/outbox/payload-segments.js';
import { makeTempDir } from '../../support/temp-dir.js';

describe('PayloadSegments', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await makeTempDir('stackhooks-segments-');
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  // Sizes from a few bytes to past the largest buffer records are framed into, non-ASCII included.
  const texts = Array.from({ length: 600 }, (_, i) =>
    i === 300 ? 'é'.repeat(700_000) : `${i}:${'ü€x'.repeat((i * 37) % 900)}`,
  );

  it('reads back every record placed, before its flush and after it', async () => {
    const segments = await PayloadSegments.open(dir, 64 * 1024 * 1024);
    const placed: [Locator, string][] = texts.map((text) => [segments.append(text), text]);
    for (const [loc, text] of placed) expect(segments.read(loc).toString('utf8')).to.equal(text);
    await segments.flush();
    await segments.close();
    const again = await PayloadSegments.open(dir, 64 * 1024 * 1024);
    for (const [loc, text] of placed) expect(again.read(loc).toString('utf8')).to.equal(text);
    await again.close();
  });

  it('places a record given in parts as the text they join to', async () => {
    const segments = await PayloadSegments.open(dir, 64 * 1024 * 1024);
    const parts = ['{"a":"é€', '', '😀"', ',"b":[1,2]}'];
    const loc = segments.append(parts);
    await segments.flush();
    expect(segments.read(loc).toString('utf8')).to.equal(parts.join(''));
    expect(segments.read(segments.append('next')).toString('utf8')).to.equal('next');
    await segments.close();
  });

  it('places records one after the other across segments, each read back from its own', async () => {
    const segments = await PayloadSegments.open(dir, 256 * 1024);
    const placed: [Locator, string][] = texts.map((text) => [segments.append(text), text]);
    expect(new Set(placed.map(([loc]) => loc.seg)).size).to.be.greaterThan(2);
    await segments.flush();
    for (const [loc, text] of placed) expect(segments.read(loc).toString('utf8')).to.equal(text);
    await segments.close();
  });

  it('keeps the records a flush wrote when records placed during it fill their segment and start the next', async () => {
    const segments = await PayloadSegments.open(dir, 64 * 1024);
    const record = (i: number) => `${i}:${'x'.repeat(4000)}`;
    const first: [Locator, string][] = [0, 1, 2].map((i) => [segments.append(record(i)), record(i)]);
    const flushing = segments.flush();
    // Placed while the flush writes: the rest of the first segment, then the next ones.
    const during: [Locator, string][] = Array.from({ length: 40 }, (_, i) => [
      segments.append(record(100 + i)),
      record(100 + i),
    ]);
    expect(during[0][0].seg).to.equal(first[0][0].seg);
    expect(during.at(-1)![0].seg).to.be.greaterThan(first[0][0].seg);
    await flushing;
    await segments.flush();
    await segments.close();
    const again = await PayloadSegments.open(dir, 64 * 1024);
    for (const [loc, text] of [...first, ...during]) expect(again.read(loc).toString('utf8')).to.equal(text);
    await again.close();
  });

  it('writes the full buffers of a flush while later records are still being placed, and reads them all back', async () => {
    const segments = await PayloadSegments.open(dir, 64 * 1024 * 1024);
    // Past the first few framing buffers, so some are complete (and written) before the flush.
    const placed: [Locator, string][] = Array.from({ length: 400 }, (_, i) => {
      const text = `${i}:${'ü'.repeat(1000 + i)}`;
      return [segments.append(text), text];
    });
    await segments.flush();
    await segments.close();
    const again = await PayloadSegments.open(dir, 64 * 1024 * 1024);
    for (const [loc, text] of placed) expect(again.read(loc).toString('utf8')).to.equal(text);
    await again.close();
  });
});
