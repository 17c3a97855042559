import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { openFsArchive } from '../../../adapters/archive-fs/index.js';
import type { ChainhookV1Payload } from '../../../core/chainhook-v1/v1-payload.js';
import { ChainBuilder, TEST_KEYS, addressOf, stxTransfer } from '../../support/block-builder.js';
import { describeWithFixtures, fixturePath } from '../../support/fixtures.js';
import { TEST_DATABASE_URL, dropSchema, freshSchemaUrl, postgresAvailable } from '../../support/postgres.js';
import { CLI_FROM_SOURCE, runCli } from '../../support/server-process.js';
import { makeTempDir } from '../../support/temp-dir.js';
import { startTestReceiver } from '../../support/test-receiver.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const withPostgres = await postgresAvailable();
const TRANSFERS = { scope: 'stx_event', actions: ['transfer'] };

/** A 1.x predicate file's body for mainnet, with the given scope, action and options. */
function predicateFile(
  scope: object,
  more: object = {},
  thenThat: object = { file_append: { path: 'out.jsonl' } },
) {
  return {
    uuid: 'scan-test',
    name: 'scan test',
    version: 1,
    chain: 'stacks',
    networks: { mainnet: { if_this: scope, then_that: thenThat, ...more } },
  };
}

function payloadsOf(text: string): ChainhookV1Payload[] {
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as ChainhookV1Payload);
}

const heightsOf = (payloads: ChainhookV1Payload[]) => payloads.map((p) => p.apply[0]!.block_identifier.index);

describe('stackhooks predicates scan', function () {
  this.timeout(120_000);
  let dir: string;
  let tsv: string;
  /** The heights holding a transfer, and each one's txid. */
  const transfers = new Map<number, string>();

  before(async () => {
    // 30 blocks, a transfer in every fifth one (heights 5, 10, ... 30).
    const chain = new ChainBuilder({ label: 'predicates-scan' });
    const lines: string[] = [];
    for (let i = 1; i <= 30; i++) {
      const transfer =
        i % 5 === 0
          ? await stxTransfer({ recipient: addressOf(TEST_KEYS.bob), amount: BigInt(i) })
          : undefined;
      const block = chain.next({ transactions: transfer ? [transfer] : [] });
      if (transfer) transfers.set(block.block_height, transfer.transaction.txid);
      lines.push(`${i}\t2024-01-01 00:00:00+00\t/new_block\t${JSON.stringify(block)}`);
    }
    const made = await makeTempDir();
    tsv = join(made, 'chain.tsv');
    await writeFile(tsv, lines.join('\n') + '\n');
  });
  beforeEach(async () => {
    dir = await realpath(await makeTempDir());
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  async function imported(env: Record<string, string>): Promise<void> {
    const result = await runCli(['import', tsv], env);
    expect(result.code, result.out).to.equal(0);
  }

  async function scan(body: object, args: string[], env: Record<string, string>) {
    const file = join(dir, 'predicate.json');
    await writeFile(file, JSON.stringify(body));
    return runCli(['predicates', 'scan', file, ...args], env);
  }

  it("prints each matching block's 1.x payload as a JSON line on stdout, in height order, with progress on stderr", async () => {
    const env = { STACKHOOKS_DATA_DIR: join(dir, 'data') };
    await imported(env);
    const result = await scan(predicateFile(TRANSFERS), [], env);
    expect(result.code, result.out).to.equal(0);
    const payloads = payloadsOf(result.stdout);
    expect(heightsOf(payloads)).to.deep.equal([...transfers.keys()]);
    expect(payloads.map((p) => p.apply[0]!.transactions[0]!.transaction_identifier.hash)).to.deep.equal([
      ...transfers.values(),
    ]);
    expect(payloads[0]!.chainhook).to.deep.equal({
      uuid: 'scan-test',
      predicate: TRANSFERS,
      is_streaming_blocks: false,
    });
    expect(result.stderr).to.match(/scan: height 30 of 30 \(100%\), 30 blocks scanned, 6 matched/);
    expect(result.stderr).to.include('scanned 30 blocks of heights 0 to 30: 6 matched in ');
    expect(result.stderr).to.include('1 height had no block in the archive');
  });

  it("scans the predicate's start_block..end_block, or the heights the flags give", async () => {
    const env = { STACKHOOKS_DATA_DIR: join(dir, 'data') };
    await imported(env);
    const ranged = await scan(predicateFile(TRANSFERS, { start_block: 8, end_block: 21 }), [], env);
    expect(ranged.code, ranged.out).to.equal(0);
    expect(heightsOf(payloadsOf(ranged.stdout))).to.deep.equal([10, 15, 20]);
    const flagged = await scan(
      predicateFile(TRANSFERS, { start_block: 8 }),
      ['--start-block', '16', '--end-block', '99'],
      env,
    );
    expect(flagged.code, flagged.out).to.equal(0);
    expect(heightsOf(payloadsOf(flagged.stdout))).to.deep.equal([20, 25, 30]);
    expect(flagged.stderr).to.include("end block 99 is above the archive's tip 30: scanned to the tip");
    const above = await scan(predicateFile(TRANSFERS, { start_block: 31 }), [], env);
    expect(above.code, above.out).to.equal(0);
    expect(above.stdout).to.equal('');
    expect(above.stderr).to.include("nothing scanned: start block 31 is above the archive's tip 30");
  });

  it("with --then-that appends the payloads to the predicate's file inside STACKHOOKS_V1_FILE_APPEND_DIR", async () => {
    const folder = join(dir, 'appends');
    const env = { STACKHOOKS_DATA_DIR: join(dir, 'data'), STACKHOOKS_V1_FILE_APPEND_DIR: folder };
    await imported(env);
    const result = await scan(predicateFile(TRANSFERS), ['--then-that'], env);
    expect(result.code, result.out).to.equal(0);
    expect(result.stdout).to.equal('');
    expect(heightsOf(payloadsOf(await readFile(join(folder, 'out.jsonl'), 'utf8')))).to.deep.equal([
      ...transfers.keys(),
    ]);
  });

  it('with --then-that refuses a file_append path that leaves the folder, before scanning', async () => {
    const env = {
      STACKHOOKS_DATA_DIR: join(dir, 'data'),
      STACKHOOKS_V1_FILE_APPEND_DIR: join(dir, 'appends'),
    };
    await imported(env);
    const body = predicateFile(TRANSFERS, {}, { file_append: { path: '../out.jsonl' } });
    const result = await scan(body, ['--then-that'], env);
    expect(result.code).to.equal(1);
    expect(result.stderr).to.match(/then_that\.file_append\.path leaves the file_append folder/);
  });

  it("with --then-that posts the payloads in order to the predicate's URL with its authorization header", async () => {
    const receiver = await startTestReceiver();
    try {
      const env = { STACKHOOKS_DATA_DIR: join(dir, 'data') };
      await imported(env);
      const thenThat = { http_post: { url: receiver.url('/scan'), authorization_header: 'Bearer scan' } };
      const result = await scan(predicateFile(TRANSFERS, {}, thenThat), ['--then-that'], env);
      expect(result.code, result.out).to.equal(0);
      expect(receiver.received.map((r) => r.headers.authorization)).to.deep.equal(
        [...transfers.keys()].map(() => 'Bearer scan'),
      );
      expect(heightsOf(receiver.received.map((r) => JSON.parse(r.body) as ChainhookV1Payload))).to.deep.equal(
        [...transfers.keys()],
      );
    } finally {
      await receiver.close();
    }
  });

  it('stops with the height to start again from when a payload cannot be posted', async () => {
    const receiver = await startTestReceiver();
    receiver.reply((_request, index) => ({ status: index < 2 ? 200 : 410 }));
    try {
      const env = { STACKHOOKS_DATA_DIR: join(dir, 'data') };
      await imported(env);
      const thenThat = { http_post: { url: receiver.url('/scan'), authorization_header: 'x' } };
      const result = await scan(predicateFile(TRANSFERS, {}, thenThat), ['--then-that'], env);
      expect(result.code).to.equal(1);
      expect(result.stderr).to.include(
        'the payload of block 15 was not delivered (the target answered 410 Gone)',
      );
      expect(result.stderr).to.include('run it again with --start-block 15');
    } finally {
      await receiver.close();
    }
  });

  it('stops quietly with exit code 0 when its reader closes stdout (as `| head` does)', async () => {
    const env = { STACKHOOKS_DATA_DIR: join(dir, 'data') };
    await imported(env);
    const file = join(dir, 'predicate.json');
    await writeFile(file, JSON.stringify(predicateFile(TRANSFERS)));
    const child = spawn(process.execPath, [...CLI_FROM_SOURCE, 'predicates', 'scan', file], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    // Closed before the first payload is written: every write finds no reader.
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const [code] = (await once(child, 'exit')) as [number | null];
    expect(code, stderr).to.equal(0);
    expect(stderr).to.not.include('EPIPE');
  });

  it('refuses a predicate file that is not a valid predicate, naming the field', async () => {
    const env = { STACKHOOKS_DATA_DIR: join(dir, 'data') };
    const result = await scan(predicateFile({ scope: 'stx_event', actions: ['steal'] }), [], env);
    expect(result.code).to.equal(1);
    expect(result.stderr).to.include(
      'networks.mainnet.if_this.actions must be a non-empty list of mint, transfer, lock, burn',
    );
  });

  it('refuses a predicate with no part for the network of the archive', async () => {
    const env = { STACKHOOKS_DATA_DIR: join(dir, 'data'), STACKHOOKS_NETWORK: 'testnet' };
    const result = await scan(predicateFile(TRANSFERS), [], env);
    expect(result.code).to.equal(1);
    expect(result.stderr).to.include('has no networks.testnet: the archive follows testnet');
  });

  it('says the archive is empty rather than scanning nothing', async () => {
    const result = await scan(predicateFile(TRANSFERS), [], { STACKHOOKS_DATA_DIR: join(dir, 'data') });
    expect(result.code).to.equal(1);
    expect(result.stderr).to.include('the archive is empty');
  });

  if (withPostgres) {
    it('scans an archive kept in PostgreSQL', async () => {
      const url = freshSchemaUrl('scan');
      try {
        const env = { STACKHOOKS_DATA_DIR: join(dir, 'data'), STACKHOOKS_DATABASE_URL: url };
        await imported(env);
        const result = await scan(predicateFile(TRANSFERS), [], env);
        expect(result.code, result.out).to.equal(0);
        expect(heightsOf(payloadsOf(result.stdout))).to.deep.equal([...transfers.keys()]);
      } finally {
        await dropSchema(url);
      }
    });
  } else {
    it(`needs PostgreSQL at ${TEST_DATABASE_URL} to scan an archive kept there, which does not answer`);
  }
});

describeWithFixtures('stackhooks predicates scan over recorded mainnet traffic', function () {
  this.timeout(180_000);
  let dir: string;
  beforeEach(async () => {
    dir = await makeTempDir();
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('gives every canonical block of a recording with a reorg once, in height order, and none of the orphaned branch', async () => {
    const dataDir = join(dir, 'data');
    const env = { STACKHOOKS_DATA_DIR: dataDir };
    const imported = await runCli(
      ['import', fixturePath('stacks-blockchain-api/mainnet-reorg-scenario1.tsv')],
      env,
    );
    expect(imported.code, imported.out).to.equal(0);
    const file = join(dir, 'every-block.json');
    await writeFile(file, JSON.stringify(predicateFile({ scope: 'block_height', higher_than: 0 })));
    const result = await runCli(['predicates', 'scan', file], env);
    expect(result.code, result.out).to.equal(0);
    const payloads = payloadsOf(result.stdout);
    const archive = await openFsArchive(join(dataDir, 'archive'));
    try {
      const tip = (await archive.tip())!.height;
      const canonical: string[] = [];
      for (let height = 1; height <= tip; height++) {
        const block = await archive.getCanonicalAt(height);
        if (block) canonical.push(block.block_identifier.hash);
      }
      expect(canonical.length).to.be.greaterThan(0);
      expect(payloads.map((p) => p.apply[0]!.block_identifier.hash)).to.deep.equal(canonical);
    } finally {
      await archive.close();
    }
  });
});
