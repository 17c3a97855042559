import { readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'chai';
import { RecordLog } from '../../../adapters/archive-fs/record-log.js';
import type { LogPosition, ScannedRecord } from '../../../adapters/archive-fs/record-log.js';
import type { BlockHeader } from '../../../core/chain/block-header.js';
import { makeTempDir } from '../../support/temp-dir.js';

const header = (n: number): BlockHeader => ({
  hash: `0x${n.toString(16).padStart(64, 'a')}`,
  height: n,
  parent_hash: `0x${(n - 1).toString(16).padStart(64, 'a')}`,
});
const body = (n: number): Buffer => Buffer.from(JSON.stringify({ block: n, pad: 'x'.repeat(n * 10) }));

async function scanAll(log: RecordLog): Promise<{ records: ScannedRecord[]; end: unknown }> {
  const records: ScannedRecord[] = [];
  const end = await log.scan({ segment: 0, offset: 0 }, async (record) => {
    records.push(record);
  });
  return { records, end };
}

describe('RecordLog', () => {
  let dir: string;

  beforeEach(async () => {
    dir = await makeTempDir('stackhooks-record-log-');
  });

  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('reads back each appended body from its position', async () => {
    const log = await RecordLog.open(dir, 1 << 20);
    const written = [];
    for (let n = 1; n <= 5; n++) written.push(await log.append(header(n), body(n)));
    for (let n = 1; n <= 5; n++) {
      const { position, length } = written[n - 1];
      expect((await log.read(position, length)).equals(body(n))).to.equal(true);
    }
    await log.close();
  });

  it('scans every record in order with its header, across segments', async () => {
    const log = await RecordLog.open(dir, 300);
    for (let n = 1; n <= 8; n++) await log.append(header(n), body(n));
    const { records, end } = await scanAll(log);
    expect(records.map((record) => record.header)).to.deep.equal([1, 2, 3, 4, 5, 6, 7, 8].map(header));
    expect(new Set(records.map((record) => record.position.segment)).size).to.be.greaterThan(2);
    expect(end).to.deep.equal(log.end());
    await log.close();
  });

  it('stops a scan at a torn record and truncates there', async () => {
    const first = await RecordLog.open(dir, 1 << 20);
    for (let n = 1; n <= 3; n++) await first.append(header(n), body(n));
    await first.close();
    const file = join(dir, '000000.seg');
    const { size } = await stat(file);
    await writeFile(file, (await readFile(file)).subarray(0, size - 5));

    const log = await RecordLog.open(dir, 1 << 20);
    const { records, end } = await scanAll(log);
    expect(records).to.have.length(2);
    await log.truncate(end as { segment: number; offset: number });
    const appended = await log.append(header(3), body(3));
    expect(appended.position).to.deep.equal(end);
    expect((await scanAll(log)).records).to.have.length(3);
    await log.close();
  });

  it('refuses to return a body whose bytes were damaged', async () => {
    const log = await RecordLog.open(dir, 1 << 20);
    const { position, length } = await log.append(header(1), body(1));
    await log.sync();
    const file = join(dir, '000000.seg');
    const bytes = await readFile(file);
    bytes[length - 3] ^= 0xff;
    await writeFile(file, bytes);
    const error = await log.read(position, length).catch((err: Error) => err);
    expect((error as Error).message).to.match(/damaged/);
    await log.close();
  });

  it('reads on through the whole records in the bytes asked for, and says where to read on, across segments', async () => {
    const log = await RecordLog.open(dir, 300);
    const written = [];
    for (let n = 1; n <= 8; n++) written.push(await log.append(header(n), body(n)));
    const met: string[] = [];
    let position: LogPosition | undefined = written[1].position;
    for (let reads = 0; position !== undefined; reads++) {
      expect(reads).to.be.lessThan(20);
      // Fewer bytes than two records: a read takes one whole record, or none and moves to the next segment.
      const { records, next } = await log.readOn(position, written[7].length + 10);
      for (const record of records) {
        met.push(record.hash);
        expect(JSON.parse(record.body().toString()).block).to.equal(met.length + 1);
      }
      position = next;
    }
    expect(met).to.deep.equal([2, 3, 4, 5, 6, 7, 8].map((n) => header(n).hash));
    await log.close();
  });

  it('stops reading on at bytes that are no record, and checks a record’s crc when its body is taken', async () => {
    const log = await RecordLog.open(dir, 1 << 20);
    const written = [];
    for (let n = 1; n <= 3; n++) written.push(await log.append(header(n), body(n)));
    await log.sync();
    const file = join(dir, '000000.seg');
    const bytes = await readFile(file);
    // Record 2's body damaged (its crc no longer matches); record 3's magic overwritten.
    bytes[written[1].position.offset + written[1].length - 3] ^= 0xff;
    bytes[written[2].position.offset] ^= 0xff;
    await writeFile(file, bytes);
    const { records, next } = await log.readOn(written[0].position, 1 << 20);
    expect(records.map((record) => record.hash)).to.deep.equal([1, 2].map((n) => header(n).hash));
    expect(next).to.equal(undefined);
    expect(JSON.parse(records[0].body().toString()).block).to.equal(1);
    expect(() => records[1].body()).to.throw(/damaged/);
    await log.close();
  });
});
