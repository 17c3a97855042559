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
});
