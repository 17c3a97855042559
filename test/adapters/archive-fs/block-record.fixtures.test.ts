// Every block of the real recordings, normalized, stored as a record and read back.
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { expect } from 'chai';
import { openFsArchive } from '../../../adapters/archive-fs/index.js';
import { decodeBlockRecord, encodeBlockRecord } from '../../../adapters/archive-fs/block-record.js';
import type { NormalizedBlock } from '../../../core/chain/block.js';
import type { ContractAbi } from '../../../core/chain/contract-abi.js';
import type { ChainNetwork } from '../../../core/stacks-codec/network.js';
import type { NodeBlock } from '../../../core/stacks-codec/node-block.js';
import { normalizeBlock } from '../../../core/stacks-codec/normalize-block.js';
import { NODE_RECORDINGS, describeWithFixtures, fixturePath, readReplayTsv } from '../../support/fixtures.js';
import { makeTempDir } from '../../support/temp-dir.js';
import { skipBecause } from '../../support/skip-because.js';

const RECORDINGS = NODE_RECORDINGS.map(({ file, network }) => [file, network] as const);

/** Every `/new_block` of a recording normalized in order, ABIs of earlier deploys known. */
async function normalizedBlocks(file: string, network: ChainNetwork): Promise<NormalizedBlock[]> {
  const known = new Map<string, ContractAbi>();
  const blocks: NormalizedBlock[] = [];
  for await (const request of readReplayTsv(file)) {
    if (request.path !== '/new_block') continue;
    const { block, contracts } = normalizeBlock(request.body as NodeBlock, {
      network,
      lookupAbi: (id) => known.get(id),
    });
    for (const contract of contracts) if (contract.abi) known.set(contract.contract_identifier, contract.abi);
    blocks.push(block);
  }
  return blocks;
}

describeWithFixtures('block records of the recorded blocks', function () {
  this.timeout(60_000);

  for (const [file, network] of RECORDINGS) {
    it(`read back every block of ${file} exactly as normalized`, async function () {
      if (!existsSync(fixturePath(file))) skipBecause(this, `${file} is not among the recorded fixtures`);
      const blocks = await normalizedBlocks(file, network);
      expect(blocks.length).to.be.greaterThan(0);
      for (const block of blocks) expect(decodeBlockRecord(encodeBlockRecord(block))).to.deep.equal(block);
    });
  }

  it('gives back the busy poison-microblock block from the archive exactly as put', async () => {
    const [block] = await normalizedBlocks('stacks-blockchain-api/poisonmicroblock.tsv', 'mainnet');
    expect(block.transactions).to.have.length(63);
    const dir = await makeTempDir('stackhooks-block-record-');
    const archive = await openFsArchive(dir);
    try {
      await archive.put(block);
      await archive.close();
      const reopened = await openFsArchive(dir);
      try {
        expect(await reopened.getByHash(block.block_identifier.hash)).to.deep.equal(block);
      } finally {
        await reopened.close();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
