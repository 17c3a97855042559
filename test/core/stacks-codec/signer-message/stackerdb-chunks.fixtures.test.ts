// The signer-metrics recordings: a regtest node's StackerDB posts, decoded here, against the payloads
// Chainhook 1.x sent for signer messages (a mainnet dump and a regtest dump of the same build).
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { expect } from 'chai';
import {
  readStackerDbPost,
  type SignerChunk,
} from '../../../../core/stacks-codec/signer-message/stackerdb-chunks.js';
import { TEST_KEYS } from '../../../support/block-builder.js';
import { blockRejected, filled, signedSlot, stackerDbPost } from '../../../support/signer-message-builder.js';
import { describeWithFixtures, fixturePath, readPostedRequests } from '../../../support/fixtures.js';

const SAMPLE = 'signer-metrics-api/stackerdb-sample-events.tsv.gz';
const DUMPS = [
  'signer-metrics-api/dump-chainhook-payloads-2024-11-02.ndjson.gz',
  'signer-metrics-api/dump-regtest-chainhook-payloads.ndjson.gz',
];

type DumpChunk = { contract: string; sig: string; pubkey: string; message: SignerChunk['message'] };

/** A message's kind, with a block response's verdict. */
function kindOf(message: SignerChunk['message']): string {
  return message.type === 'BlockResponse' ? `BlockResponse/${message.data.type}` : message.type;
}

/** Each leaf's path with how it is written: `hex<n>` for 0x hex of n digits, else its JSON type. */
function encodings(value: unknown, path = '', into = new Set<string>()): Set<string> {
  if (Array.isArray(value)) value.forEach((item) => encodings(item, `${path}[]`, into));
  else if (value !== null && typeof value === 'object')
    for (const [key, item] of Object.entries(value)) encodings(item, `${path}.${key}`, into);
  else if (typeof value === 'string' && /^0x[0-9a-f]*$/.test(value))
    into.add(`${path}: hex${value.length - 2}`);
  else into.add(`${path}: ${typeof value}`);
  return into;
}

function dumpChunks(file: string): DumpChunk[] {
  const lines = gunzipSync(readFileSync(fixturePath(file)))
    .toString('utf8')
    .split('\n')
    .filter(Boolean);
  return lines.flatMap((line) =>
    (JSON.parse(line) as { events: { payload: { data: DumpChunk } }[] }).events.map((e) => e.payload.data),
  );
}

describeWithFixtures('readStackerDbPost on recorded StackerDB traffic', () => {
  const decoded: SignerChunk[] = [];
  const blockIds = new Set<string>();
  let posts = 0;
  let skipped = 0;
  const dumped: DumpChunk[] = [];

  before(async function () {
    this.timeout(120_000);
    for (const request of await readPostedRequests(SAMPLE)) {
      if (request.path === '/new_block')
        blockIds.add((request.body as { index_block_hash: string }).index_block_hash);
      if (request.path !== '/stackerdb_chunks') continue;
      posts++;
      const post = readStackerDbPost(request.body);
      decoded.push(...post.chunks);
      skipped += post.skipped.length;
    }
    for (const file of DUMPS) dumped.push(...dumpChunks(file));
  });

  it('decodes every slot of every post', () => {
    expect(posts).to.equal(3141);
    expect(skipped).to.equal(0);
    expect(decoded).to.have.length(3169);
  });

  it("writes each kind with 1.x's fields and encodings", () => {
    const theirs = new Map<string, Set<string>>();
    for (const chunk of dumped) {
      const set = theirs.get(kindOf(chunk.message)) ?? new Set<string>();
      theirs.set(kindOf(chunk.message), encodings(chunk, '', set));
    }
    const kinds = new Set(decoded.map((c) => kindOf(c.message)));
    expect([...kinds].sort()).to.deep.equal([
      'BlockProposal',
      'BlockPushed',
      'BlockResponse/Accepted',
      'MockBlock',
      'MockProposal',
      'MockSignature',
    ]);
    for (const kind of kinds) {
      const ours = new Set<string>();
      for (const chunk of decoded.filter((c) => kindOf(c.message) === kind)) encodings(chunk, '', ours);
      // 1.x's scans read a proposal's empty signer list back from its database as [""]; live, it was [].
      const expected = [...theirs.get(kind)!].filter(
        (e) => e !== '.message.data.block.header.signer_signature[]: string',
      );
      // The same fields; each written as 1.x wrote it (bit vectors' lengths vary with the signer set).
      const paths = (set: Iterable<string>) => [...new Set([...set].map((e) => e.split(':')[0]))].sort();
      expect(paths(ours), kind).to.deep.equal(paths(expected));
      expect(
        [...ours].filter((e) => !expected.includes(e)),
        kind,
      ).to.deep.equal([]);
    }
  });

  it("recovers the same signer keys as 1.x did from the same regtest network's slots", () => {
    const regtest = new Set(dumpChunks(DUMPS[1]!).map((c) => c.pubkey));
    expect(new Set(decoded.map((c) => c.pubkey))).to.deep.equal(regtest);
  });

  it('gives every pushed block the index block hash the node announced it under', () => {
    const pushed = decoded.flatMap((c) => (c.message.type === 'BlockPushed' ? [c.message.data.block] : []));
    expect(pushed).to.have.length(523);
    expect(pushed.filter((b) => !blockIds.has(b.index_block_hash))).to.deep.equal([]);
  });

  it("accepts only blocks that were proposed: each signer signature hash is a proposal's block hash", () => {
    const proposed = new Set(
      decoded.flatMap((c) => (c.message.type === 'BlockProposal' ? [c.message.data.block.block_hash] : [])),
    );
    const accepted = decoded.flatMap((c) =>
      c.message.type === 'BlockResponse' && c.message.data.type === 'Accepted'
        ? [c.message.data.data.signer_signature_hash]
        : [],
    );
    expect(accepted).to.have.length(2056);
    expect(accepted.filter((hash) => !proposed.has(hash))).to.deep.equal([]);
  });

  it("recovers a mock signature's key from the mock proposal it signs: the key that wrote the slot", () => {
    const mocks = decoded.flatMap((c) =>
      c.message.type === 'MockSignature' ? [[c.pubkey, c.message.data.pubkey]] : [],
    );
    expect(mocks).to.have.length(30);
    expect(mocks.filter(([slot, signed]) => slot !== signed)).to.deep.equal([]);
  });

  it("writes a rejection with 1.x's fields, a failed validation's code one level deep as the client schema has it", () => {
    const rejection = (code: number) =>
      readStackerDbPost(
        stackerDbPost('signers-0-1', [
          signedSlot(
            blockRejected({
              reason: 'r',
              code,
              validation: 2,
              signerSignatureHash: filled(32, 1),
              chainId: 1,
              signature: filled(65, 1),
              serverVersion: 'v',
            }),
            TEST_KEYS.alice,
          ),
        ]),
      ).chunks[0]!;
    const ours = new Set([...encodings(rejection(0)), ...encodings(rejection(4))]);
    const theirs = new Set<string>();
    for (const chunk of dumped.filter((c) => kindOf(c.message) === 'BlockResponse/Rejected'))
      encodings(chunk, '', theirs);
    // 1.x wrote {"VALIDATION_FAILED": {"VALIDATION_FAILED": code}}, which its own client's schema refuses.
    const nested = '.message.data.data.reason_code.VALIDATION_FAILED';
    expect([...ours].sort()).to.deep.equal(
      [...theirs].map((e) => e.replace(`${nested}.VALIDATION_FAILED`, nested)).sort(),
    );
  });
});
