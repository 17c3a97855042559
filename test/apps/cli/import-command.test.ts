import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { openFsArchive } from '../../../adapters/archive-fs/index.js';
import { Cl } from '@stacks/transactions';
import type { ContractCallArg } from '../../../core/chain/transaction-payload.js';
import { ChainBuilder, contractCall } from '../../support/block-builder.js';
import { startFakeNodeRpc } from '../../support/fake-node-rpc.js';
import { CLI_FROM_SOURCE, runCli } from '../../support/server-process.js';
import { makeTempDir } from '../../support/temp-dir.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

async function writeTsv(path: string, blocks: number): Promise<void> {
  const chain = new ChainBuilder();
  const lines: string[] = [];
  for (let i = 0; i < blocks; i++) {
    lines.push(`${i + 1}\t2024-01-01 00:00:00+00\t/new_block\t${JSON.stringify(chain.next())}`);
    lines.push(`${i + 1}\t2024-01-01 00:00:00+00\t/new_burn_block\t{"burn_block_height":${i}}`);
  }
  await writeFile(path, lines.join('\n') + '\n');
}

async function archivedCount(dataDir: string): Promise<number> {
  const archive = await openFsArchive(join(dataDir, 'archive'));
  try {
    return await archive.count();
  } finally {
    await archive.close();
  }
}

describe('stackhooks import', function () {
  this.timeout(120_000);
  let dir: string;
  beforeEach(async () => {
    dir = await makeTempDir();
  });
  afterEach(async () => rm(dir, { recursive: true, force: true }));

  it('reads a TSV into the archive, and a second run changes nothing', async () => {
    const file = join(dir, 'chain.tsv');
    await writeTsv(file, 300);
    const env = { STACKHOOKS_DATA_DIR: join(dir, 'data') };
    const first = await runCli(['import', file], env);
    expect(first.code, first.out).to.equal(0);
    expect(first.out).to.include('read 300 blocks, archived 300 new ones');
    const again = await runCli(['import', file], env);
    expect(again.out).to.include('read 300 blocks, archived 0 new ones');
    expect(await archivedCount(join(dir, 'data'))).to.equal(300);
  });

  it('says "1 block", and shows its progress in megabytes of TSV text with the share of the file read', async () => {
    const file = join(dir, 'one.tsv');
    await writeTsv(file, 1);
    const result = await runCli(['import', file], { STACKHOOKS_DATA_DIR: join(dir, 'data') });
    expect(result.code, result.out).to.equal(0);
    expect(result.out).to.include('read 1 block, archived 1 new one in ');
    expect(result.out).to.match(/import: 1 block, \d+ blocks\/s, \d+\.\d MB read \(100%\)/);
  });

  it('resumes after an interrupt from its last checkpoint and ends with every block once', async () => {
    // Far more blocks than are read by the time the kill lands, however fast the import gets.
    const blocks = 12_000;
    const file = join(dir, 'chain.tsv');
    await writeTsv(file, blocks);
    const dataDir = join(dir, 'data');
    const child = spawn(process.execPath, [...CLI_FROM_SOURCE, 'import', file], {
      cwd: ROOT,
      env: { ...process.env, STACKHOOKS_DATA_DIR: dataDir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    await new Promise<void>((resolve) => {
      child.stderr.on('data', (chunk: Buffer) => {
        const seen = [...chunk.toString().matchAll(/import: (\d+) blocks/g)].map((m) => Number(m[1]));
        if (seen.some((n) => n >= 1200)) resolve();
      });
    });
    child.kill('SIGKILL');
    await once(child, 'exit');
    const partial = await archivedCount(dataDir);
    expect(partial).to.be.within(1, blocks - 1);

    const resumed = await runCli(['import', file], { STACKHOOKS_DATA_DIR: dataDir });
    expect(resumed.code, resumed.out).to.equal(0);
    expect(resumed.out).to.match(/resumed after line \d+/);
    expect(await archivedCount(dataDir)).to.equal(blocks);
  });

  it('names calls from the node given with --node-rpc-url, and counts those it cannot name without one', async () => {
    const market = 'SPJW1XE278YMCEYMXB8ZFGJMH8ZVAAEDP2S2PJYG.stacks-art-market';
    const node = await startFakeNodeRpc({
      [market]: {
        functions: [
          {
            name: 'buy',
            access: 'public',
            args: [{ name: 'item-id', type: 'uint128' }],
            outputs: { type: 'bool' },
          },
        ],
      },
    });
    try {
      const chain = new ChainBuilder();
      const lines: string[] = [];
      for (let nonce = 0; nonce < 3; nonce++) {
        const call = await contractCall({
          contractId: market,
          functionName: 'buy',
          functionArgs: [Cl.uint(9)],
          nonce,
        });
        lines.push(
          `${nonce + 1}\t2024-01-01 00:00:00+00\t/new_block\t${JSON.stringify(chain.next({ transactions: [call] }))}`,
        );
      }
      const file = join(dir, 'calls.tsv');
      await writeFile(file, lines.join('\n') + '\n');

      const unnamed = await runCli(['import', file], { STACKHOOKS_DATA_DIR: join(dir, 'plain') });
      expect(unnamed.out).to.include('3 contract calls to 1 contract without a known ABI are archived');
      expect(unnamed.out).to.include('--node-rpc-url');

      const dataDir = join(dir, 'named');
      const named = await runCli(['import', file, '--node-rpc-url', node.url], {
        STACKHOOKS_DATA_DIR: dataDir,
      });
      expect(named.code, named.out).to.equal(0);
      expect(named.out).to.not.include('without a known ABI');
      expect(node.requests).to.deep.equal([market]);
      const archive = await openFsArchive(join(dataDir, 'archive'));
      try {
        const block = await archive.getCanonicalAt(3);
        const payload = block!.transactions[0].payload;
        expect(
          payload.type === 'contract_call' && (payload.args as ContractCallArg[]).map((a) => a.name),
        ).to.deep.equal(['item-id']);
      } finally {
        await archive.close();
      }
    } finally {
      await node.close();
    }
  });
});
