// Real recorded node traffic archived through the fs archive.
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { expect } from 'chai';
import { openFsArchive } from '../../../adapters/archive-fs/index.js';
import type { FsArchive } from '../../../adapters/archive-fs/index.js';
import type { BlockHeader } from '../../../core/chain/block-header.js';
import type { NormalizedBlock } from '../../../core/chain/block.js';
import type { ChainUpdate } from '../../../core/chain/chain-update.js';
import { minimalNormalizedBlock } from '../../support/block-builder.js';
import { fixturePath, fixturesDir, readPostedRequests } from '../../support/fixtures.js';
import { makeTempDir } from '../../support/temp-dir.js';
import { expectConsistent } from './archive-check.js';

const STACKERDB = 'signer-metrics-api/stackerdb-sample-events.tsv.gz';
const REORG = 'stacks-blockchain-api/mainnet-reorg-scenario1.tsv';

type NodeBlockIds = {
  index_block_hash: string;
  block_height: number;
  parent_index_block_hash: string;
  burn_block_time: number;
};

/** The normalizer is someone else's: a NormalizedBlock built from the node block's identifiers and time. */
function minimalBlock(node: NodeBlockIds): NormalizedBlock {
  const header = {
    hash: node.index_block_hash,
    height: node.block_height,
    parent_hash: node.parent_index_block_hash,
  };
  return minimalNormalizedBlock(header, node.burn_block_time);
}

/** Every `/new_block` body of a recording, in the order the node posted them. */
async function postedBlocks(file: string): Promise<NodeBlockIds[]> {
  const blocks: NodeBlockIds[] = [];
  for (const request of await readPostedRequests(file)) {
    if (request.path === '/new_block') blocks.push(request.body as NodeBlockIds);
  }
  return blocks;
}

/** `describe` when the recording exists, else one pending test that says why it is skipped. */
function describeWithRecording(file: string, title: string, body: () => void): void {
  if (fixturesDir() !== undefined && existsSync(fixturePath(file))) {
    describe(title, body);
    return;
  }
  describe(title, () =>
    it(`is skipped because ${file} is absent (set STACKHOOKS_FIXTURES or provide ../shared/fixtures)`),
  );
}

describeWithRecording(STACKERDB, 'fs archive fed the stackerdb recording', () => {
  let dir: string;
  let archive: FsArchive;
  const updates: { hash: string; duplicate: boolean; update: ChainUpdate }[] = [];

  before(async function () {
    this.timeout(60_000);
    dir = await makeTempDir('stackhooks-archive-stackerdb-');
    archive = await openFsArchive(dir);
    const seen = new Set<string>();
    for (const node of await postedBlocks(STACKERDB)) {
      const update = await archive.put(minimalBlock(node));
      updates.push({ hash: node.index_block_hash, duplicate: seen.has(node.index_block_hash), update });
      seen.add(node.index_block_hash);
    }
  });

  after(async () => {
    await archive.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('archives 506 distinct blocks from 801 posts', async () => {
    expect(updates).to.have.length(801);
    expect(await archive.count()).to.equal(506);
  });

  it('treats every re-sent block as a no-op', () => {
    const duplicates = updates.filter((entry) => entry.duplicate);
    expect(duplicates).to.have.length(295);
    for (const { update } of duplicates)
      expect(update).to.deep.equal({ rollback: [], apply: [], duplicate: true });
  });

  it('ends with the whole chain from 0 to 505 canonical, late blocks connected', async () => {
    const tip = await expectConsistent(archive, 0);
    expect(tip.height).to.equal(505);
  });

  it('emits updates that replay to the canonical chain, each block applied once and never rolled back', async () => {
    const applied: BlockHeader[] = updates.flatMap((entry) => entry.update.apply);
    expect(updates.flatMap((entry) => entry.update.rollback)).to.deep.equal([]);
    expect(applied.map((header) => header.height)).to.deep.equal(Array.from({ length: 506 }, (_, h) => h));
    for (const header of applied) expect(await archive.isCanonical(header.hash)).to.equal(true);
  });
});

describeWithRecording(REORG, 'fs archive fed the mainnet reorg recording', () => {
  let dir: string;

  before(async () => {
    dir = await makeTempDir('stackhooks-archive-reorg-');
    const archive = await openFsArchive(dir);
    for (const node of await postedBlocks(REORG)) await archive.put(minimalBlock(node));
    await archive.close();
  });

  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('keeps the blocks the later blocks build on canonical at 30 and 45, and the last sent at 47, after a reopen', async () => {
    const archive = await openFsArchive(dir);
    const canonicalAt = async (height: number) =>
      (await archive.getCanonicalAt(height))?.block_identifier.hash;
    expect(await canonicalAt(30)).to.equal(
      '0x101dc10b0ffda670c34c603ac0ef3f251c3f5b5ca310ec624fb9b32d19d5836c',
    );
    expect(await canonicalAt(45)).to.equal(
      '0x9cb73562d8eabb0cd991f23eac7de8402de27408e40b9827b33854f54e0a46f5',
    );
    expect(await canonicalAt(47)).to.equal(
      '0x68fb02f8c3b14fee8e8d26f1985439c67d07d999f9831a3a258bdf912ac361df',
    );
    expect(
      await archive.isCanonical('0x65549af908664382673292297d6fad1353b23b8ebff8e69d4b6bef662c621f46'),
    ).to.equal(false);
    expect(
      await archive.isCanonical('0x5b3b7490ce5ad15777164ebaae194b01b59f6dd876bca2ca899f29cd797dfa62'),
    ).to.equal(false);
    expect(
      await archive.isCanonical('0x4f6dc8e302792fe2e3c5b66ae29db7d6170baa0e2120fb8f7b3c3956bbc3901c'),
    ).to.equal(false);
    expect(await archive.count()).to.equal(50);
    await expectConsistent(archive, 1);
    await archive.close();
  });
});
