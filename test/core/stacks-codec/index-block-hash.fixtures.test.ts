import { readFile } from 'node:fs/promises';
import { gunzipSync } from 'node:zlib';
import { expect } from 'chai';
import { checkNodeBlock } from '../../../core/stacks-codec/check-node-block.js';
import { deriveIndexBlockHash } from '../../../core/stacks-codec/index-block-hash.js';
import { NODE_RECORDINGS, describeWithFixtures, fixturePath, readReplayTsv } from '../../support/fixtures.js';

/** Every `{block_hash, header: {consensus_hash}, index_block_hash}` object of a JSON value, depth first. */
function proposals(value: unknown, found: { block: string; consensus: string; id: string }[] = []) {
  if (value === null || typeof value !== 'object') return found;
  const o = value as { block_hash?: string; header?: { consensus_hash?: string }; index_block_hash?: string };
  if (o.block_hash && o.header?.consensus_hash && o.index_block_hash)
    found.push({ block: o.block_hash, consensus: o.header.consensus_hash, id: o.index_block_hash });
  for (const child of Object.values(value)) proposals(child, found);
  return found;
}

describeWithFixtures('index_block_hash on the recordings', function () {
  this.timeout(60_000);

  it('derives the id of each of the 445 miner block proposals the signer dumps hold', async () => {
    const found: { block: string; consensus: string; id: string }[] = [];
    for (const file of [
      'signer-metrics-api/dump-chainhook-payloads-2024-11-02.ndjson.gz',
      'signer-metrics-api/dump-regtest-chainhook-payloads.ndjson.gz',
    ]) {
      const text = gunzipSync(await readFile(fixturePath(file))).toString('utf8');
      for (const line of text.split('\n')) if (line.trim() !== '') proposals(JSON.parse(line), found);
    }
    expect(found).to.have.length(445);
    for (const { block, consensus, id } of found) expect(deriveIndexBlockHash(block, consensus)).to.equal(id);
  });

  it('passes every /new_block body of every node recording', async () => {
    let checked = 0;
    for (const { file } of NODE_RECORDINGS) {
      for await (const request of readReplayTsv(file)) {
        if (request.path !== '/new_block') continue;
        expect(() => checkNodeBlock(request.body), `${file} line ${request.id}`).to.not.throw();
        checked++;
      }
    }
    expect(checked).to.be.greaterThan(900);
  });
});
