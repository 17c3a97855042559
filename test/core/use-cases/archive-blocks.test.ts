import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Cl, serializeCV } from '@stacks/transactions';
import { expect } from 'chai';
import type { ContractAbi } from '../../../core/chain/contract-abi.js';
import type { NodeBlock } from '../../../core/stacks-codec/node-block.js';
import type { ReceivedBody } from '../../../core/use-cases/archive-blocks.js';
import { openBlockArchiver, type OpenArchiver } from '../../../apps/server/archiver-container.js';
import { openFsArchive } from '../../../adapters/archive-fs/index.js';
import {
  ChainBuilder,
  TEST_KEYS,
  addressOf,
  contractCall,
  contractDeploy,
} from '../../support/block-builder.js';
import { makeTempDir } from '../../support/temp-dir.js';

const ALICE = addressOf(TEST_KEYS.alice);

/** A body as an import reads it from line `line` of a recording. */
const received = (block: object, line: number): ReceivedBody => ({
  body: JSON.stringify(block),
  source: { file: 'chain.tsv', line },
});
const counterAbi: ContractAbi = {
  functions: [
    { name: 'add', access: 'public', args: [{ name: 'amount', type: 'uint128' }], outputs: { type: 'bool' } },
  ],
};

describe('BlockArchiver', function () {
  this.timeout(30_000);
  let dataDir: string;
  let opened: OpenArchiver | undefined;
  const open = async () => (opened = await openBlockArchiver({ dataDir, network: 'mainnet' }));
  beforeEach(async () => {
    dataDir = await makeTempDir();
  });
  afterEach(async () => {
    await opened?.close();
    opened = undefined;
    await rm(dataDir, { recursive: true, force: true });
  });

  it("names a call's arguments from a contract an earlier run deployed, read back from the contract store", async () => {
    const chain = new ChainBuilder();
    const deploy = await contractDeploy({ contractName: 'counter', codeBody: '(begin)', abi: counterAbi });
    const first = await open();
    await first.archiver.archiveBodies([received(chain.next({ transactions: [deploy] }), 1)]);
    await first.close();
    opened = undefined;

    const call = await contractCall({
      contractId: `${ALICE}.counter`,
      functionName: 'add',
      functionArgs: [Cl.uint(3)],
      nonce: 1,
    });
    const { archiver } = await open();
    const { block } = await archiver.archiveNodeBlock(
      chain.next({ transactions: [call] }) as unknown as NodeBlock,
    );
    const payload = block.transactions[0].payload;
    expect(payload.type === 'contract_call' && payload.args).to.deep.equal([
      { hex: `0x${serializeCV(Cl.uint(3))}`, repr: 'u3', name: 'amount', type: 'uint' },
    ]);
  });

  it('archives a run of blocks in order as the canonical chain, and a block archived again changes nothing', async () => {
    const chain = new ChainBuilder();
    const blocks = [chain.next(), chain.next(), chain.next()] as unknown as NodeBlock[];
    const { archiver, close } = await open();
    await archiver.archiveBodies(blocks.map((block, i) => received(block, i + 1)));
    const again = await archiver.archiveNodeBlock(blocks[1]);
    expect(again.update).to.deep.equal({ rollback: [], apply: [], duplicate: true });
    expect(await archiver.archivedBlocks()).to.equal(3);
    await close();
    opened = undefined;
    const archive = await openFsArchive(join(dataDir, 'archive'));
    try {
      expect((await archive.tip())?.hash).to.equal(blocks[2].index_block_hash);
    } finally {
      await archive.close();
    }
  });
});
