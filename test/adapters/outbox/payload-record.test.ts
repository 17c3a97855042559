import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'chai';
import {
  placePayloadRecord,
  readPayloadMeta,
  readPayloadRecord,
  type BlockPlaces,
} from '../../../adapters/outbox/payload-record.js';
import { PayloadSegments } from '../../../adapters/outbox/payload-segments.js';
import { metaOf } from '../../../adapters/outbox/outbox-entry.js';
import { payloadTextParts } from '../../../core/payload/index.js';
import { outgoing, sharingBlocks } from '../../contracts/delivery-queue.contract.js';
import { makeTempDir } from '../../support/temp-dir.js';
import { queuedV1Body, shapeV1Payload } from '../../../core/chainhook-v1/shape-v1-payload.js';
import { v1Predicate, v1SampleBlock } from '../../core/chainhook-v1/v1-sample-block.js';

const count = (text: string, part: string) => text.split(part).length - 1;

describe('placePayloadRecord', () => {
  let dir: string;
  let segments: PayloadSegments;
  let places: BlockPlaces;
  beforeEach(async () => {
    dir = await makeTempDir('stackhooks-payload-record-');
    places = new WeakMap();
  });
  afterEach(async () => {
    await segments.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('writes a block that payloads share once in a segment, and reads each payload back whole', async () => {
    segments = await PayloadSegments.open(dir, 1 << 20);
    const payloads = sharingBlocks(['h1', 'h2', 'h3'], 2);
    const locs = payloads.map((p) => placePayloadRecord(segments, places, metaOf(p), p.body).loc);
    // Read back before the flush (from memory) and after it (from the file).
    for (const [i, loc] of locs.entries())
      expect(readPayloadRecord(segments, loc)).to.deep.equal(payloads[i]);
    await segments.flush();
    const text = await readFile(join(dir, '000001.seg'), 'utf8');
    expect(count(text, '"block 0 \\"quoted\\" ✓')).to.equal(1);
    expect(count(text, '"block 1 \\"quoted\\" ✓')).to.equal(1);
    for (const [i, loc] of locs.entries()) {
      expect(readPayloadRecord(segments, loc)).to.deep.equal(payloads[i]);
      expect(readPayloadMeta(segments, loc)).to.deep.equal(metaOf(payloads[i]));
    }
  });

  it("writes a body's own text as it is, not quoted again as a JSON string", async () => {
    segments = await PayloadSegments.open(dir, 1 << 20);
    const payloads = sharingBlocks(['h1', 'h2', 'h3'], 2);
    for (const p of payloads) placePayloadRecord(segments, places, metaOf(p), p.body);
    await segments.flush();
    const text = await readFile(join(dir, '000001.seg'), 'utf8');
    expect(count(text, '{"chainhook":')).to.equal(3);
    expect(count(text, '\\"chainhook\\"')).to.equal(0);
  });

  it("reads records that hold a body's own text as JSON strings, as written before", async () => {
    segments = await PayloadSegments.open(dir, 1 << 20);
    const payloads = sharingBlocks(['h1', 'h2'], 2);
    const locs = payloads.map(({ body, ...fields }) => {
      const parts = payloadTextParts(body);
      const blocks = parts.blocks.map(({ text }) => segments.append(text, false));
      const record = { ...fields, body_texts: parts.texts, body_blocks: blocks.map((b) => [b.off, b.len]) };
      return segments.append(JSON.stringify(record), false);
    });
    await segments.flush();
    for (const [i, loc] of locs.entries()) {
      expect(readPayloadRecord(segments, loc)).to.deep.equal(payloads[i]);
      expect(readPayloadMeta(segments, loc)).to.deep.equal(metaOf(payloads[i]));
    }
  });

  it('writes a shared block again in the next segment, so a record names only blocks in its own segment', async () => {
    segments = await PayloadSegments.open(dir, 2_000);
    const payloads = sharingBlocks(['h1', 'h2', 'h3', 'h4', 'h5', 'h6'], 1);
    const locs = payloads.map((p) => placePayloadRecord(segments, places, metaOf(p), p.body).loc);
    await segments.flush();
    const files = await readdir(dir);
    expect(files.length).to.be.greaterThan(1);
    for (const name of files)
      expect(count(await readFile(join(dir, name), 'utf8'), '"block 0 \\"quoted\\" ✓')).to.equal(1);
    for (const [i, loc] of locs.entries())
      expect(readPayloadRecord(segments, loc)).to.deep.equal(payloads[i]);
  });

  it('writes a block that 1.x payloads share once in a segment, and reads each back whole', async () => {
    segments = await PayloadSegments.open(dir, 1 << 20);
    const block = await v1SampleBlock();
    const payloads = ['p1', 'p2', 'p3'].map((uuid) => {
      const body = shapeV1Payload({
        uuid,
        predicate: v1Predicate(),
        network: 'mainnet',
        apply: [{ block, txIndexes: [0, 2] }],
        rollback: [],
      });
      return { ...outgoing(uuid), body: queuedV1Body(body) };
    });
    const locs = payloads.map((p) => placePayloadRecord(segments, places, metaOf(p), p.body).loc);
    await segments.flush();
    const text = await readFile(join(dir, '000001.seg'), 'utf8');
    expect(count(text, block.transactions[0].metadata.raw_tx)).to.equal(1);
    for (const [i, loc] of locs.entries())
      expect(readPayloadRecord(segments, loc)).to.deep.equal(JSON.parse(JSON.stringify(payloads[i])));
  });

  it('keeps a body without shared blocks whole in its record, as records written before shared blocks are', async () => {
    segments = await PayloadSegments.open(dir, 1 << 20);
    const payload = outgoing('h1', { pad: 30 });
    const { loc, bodyLength } = placePayloadRecord(segments, places, metaOf(payload), payload.body);
    expect(bodyLength).to.equal(JSON.stringify(payload.body).length);
    expect(JSON.parse(segments.read(loc).toString('utf8'))).to.deep.equal(payload);
    expect(readPayloadRecord(segments, loc)).to.deep.equal(payload);
  });
});
