import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'chai';
import { runImport } from '../../../apps/cli/import-command.js';
import { recordingNetwork } from '../../../apps/cli/recording-network.js';
import { StoreNetworkError } from '../../../apps/server/store-network.js';
import {
  ChainBuilder,
  TEST_KEYS,
  addressOf,
  stxTransfer,
  type NodeBlock,
} from '../../support/block-builder.js';
import { NODE_RECORDINGS, describeWithFixtures, fixturePath } from '../../support/fixtures.js';
import { runCli } from '../../support/server-process.js';
import { makeTempDir } from '../../support/temp-dir.js';

async function writeTsv(path: string, blocks: NodeBlock[]): Promise<void> {
  await writeFile(
    path,
    blocks.map((b, i) => `${i + 1}\t2024-01-01 00:00:00+00\t/new_block\t${JSON.stringify(b)}\n`).join(''),
  );
}

/** Blocks of STX transfers made for `network`, after a first block without transactions. */
async function chainOf(network: 'mainnet' | 'testnet', count: number): Promise<NodeBlock[]> {
  const chain = new ChainBuilder({ label: network });
  const tx = await stxTransfer({ recipient: addressOf(TEST_KEYS.bob, network), amount: 1n, network });
  return [chain.next(), ...Array.from({ length: count - 1 }, () => chain.next({ transactions: [tx] }))];
}

describe('stackhooks import and networks', function () {
  this.timeout(60_000);
  let dir: string;
  beforeEach(async () => {
    dir = await makeTempDir();
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('tells the network of a recording from the version of its first transaction', async () => {
    const file = join(dir, 'testnet.tsv');
    await writeTsv(file, await chainOf('testnet', 3));
    expect(await recordingNetwork(file)).to.deep.equal({ network: 'testnet', line: 2 });
    await writeTsv(file, await chainOf('mainnet', 3));
    expect(await recordingNetwork(file)).to.deep.equal({ network: 'mainnet', line: 2 });
  });

  it('refuses a testnet recording into a mainnet folder, naming both, and archives nothing', async () => {
    const file = join(dir, 'testnet.tsv');
    await writeTsv(file, await chainOf('testnet', 5));
    const dataDir = join(dir, 'data');
    const run = await runCli(['import', file], {
      STACKHOOKS_DATA_DIR: dataDir,
      STACKHOOKS_NETWORK: 'mainnet',
    });
    expect(run.code).to.equal(1);
    expect(run.out).to.include(
      `stackhooks: ${file} holds testnet transactions (line 2), and this store serves mainnet`,
    );
    // Nothing of it reached the store: a mainnet import into the same folder starts from nothing.
    const mainnet = join(dir, 'mainnet.tsv');
    await writeTsv(mainnet, await chainOf('mainnet', 4));
    expect(await runImport(mainnet, { dataDir, network: 'mainnet' })).to.deep.include({
      blocks: 4,
      archived: 4,
    });
  });

  it('refuses to import into a mainnet folder as testnet, naming the folder and both networks', async () => {
    const dataDir = join(dir, 'data');
    const mainnet = join(dir, 'mainnet.tsv');
    await writeTsv(mainnet, await chainOf('mainnet', 2));
    await runImport(mainnet, { dataDir, network: 'mainnet' });
    const testnet = join(dir, 'testnet.tsv');
    await writeTsv(testnet, await chainOf('testnet', 2));
    const refusal = await runImport(testnet, { dataDir, network: 'testnet' }).catch((err: unknown) => err);
    expect(refusal).to.be.instanceOf(StoreNetworkError);
    expect((refusal as Error).message).to.include(`the data folder ${dataDir} was created for mainnet`);
    // The lock was released: the folder opens again.
    await runImport(mainnet, { dataDir, network: 'mainnet' });
  });
});

describeWithFixtures('recordingNetwork on the recordings', () => {
  it('tells the network of every node recording', async () => {
    for (const { file, network } of NODE_RECORDINGS)
      expect((await recordingNetwork(fixturePath(file)))?.network, file).to.equal(network);
  });
});
