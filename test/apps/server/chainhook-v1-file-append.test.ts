import { readFile, realpath, rm, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'chai';
import type { ChainhookV1Payload } from '../../../core/chainhook-v1/v1-payload.js';
import { startTestServer, untilIngested, type TestServer } from '../../support/api-server.js';
import { ChainBuilder, TEST_KEYS, addressOf, stxTransfer } from '../../support/block-builder.js';
import { until } from '../../support/delivery-server.js';
import { makeTempDir } from '../../support/temp-dir.js';

/** A 1.x predicate writing its payloads to `path`. */
function predicate(
  uuid: string,
  path: string,
  scope: object = { scope: 'stx_event', actions: ['transfer'] },
) {
  return {
    uuid,
    name: uuid,
    version: 1,
    chain: 'stacks',
    networks: { mainnet: { if_this: scope, then_that: { file_append: { path } } } },
  };
}

async function register(
  t: TestServer,
  body: object,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`http://127.0.0.1:${t.server.v1Port}/v1/chainhooks`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function post(t: TestServer, block: unknown): Promise<void> {
  const response = await fetch(`${t.observerUrl}/new_block`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(block),
  });
  expect(response.status).to.equal(200);
}

async function linesOf(file: string): Promise<ChainhookV1Payload[]> {
  const text = await readFile(file, 'utf8').catch(() => '');
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as ChainhookV1Payload);
}

describe('a Chainhook 1.x file_append predicate', function () {
  this.timeout(60_000);
  let folder: string;
  let t: TestServer | undefined;

  beforeEach(async () => {
    folder = await realpath(await makeTempDir());
  });
  afterEach(async () => {
    await t?.stop();
    t = undefined;
    await rm(folder, { recursive: true, force: true });
  });

  it('appends its 1.x payloads to its file in the folder, one line each, in order, rollbacks included', async () => {
    t = await startTestServer({ STACKHOOKS_V1_PORT: '0', STACKHOOKS_V1_FILE_APPEND_DIR: folder });
    expect((await register(t, predicate('v1-file', 'out/transfers.jsonl'))).status).to.equal(200);
    const chain = new ChainBuilder();
    const b0 = chain.next();
    const transfers = [];
    for (const amount of [5n, 6n, 7n])
      transfers.push(await stxTransfer({ recipient: addressOf(TEST_KEYS.bob), amount }));
    await post(t, b0);
    const blocks = transfers.map((transfer) => chain.next({ transactions: [transfer] }));
    for (const block of blocks) await post(t, block);
    await untilIngested(t);
    const file = join(folder, 'out/transfers.jsonl');
    await until(async () => (await linesOf(file)).length === 3);

    // A longer branch from the first transfer's block takes the other two off the chain.
    const fork = chain.forkFrom(blocks[0]!.index_block_hash);
    for (let i = 0; i < 3; i++) await post(t, fork.next());
    await untilIngested(t);
    await until(async () => (await linesOf(file)).length === 4);

    const lines = await linesOf(file);
    expect(lines.map((p) => p.chainhook.uuid)).to.deep.equal(['v1-file', 'v1-file', 'v1-file', 'v1-file']);
    expect(lines.slice(0, 3).map((p) => p.apply.map((b) => b.block_identifier.index))).to.deep.equal(
      blocks.map((b) => [b.block_height]),
    );
    expect(
      lines.slice(0, 3).map((p) => p.apply[0]!.transactions[0]!.transaction_identifier.hash),
    ).to.deep.equal(transfers.map((tx) => tx.transaction.txid));
    expect(lines[3]!.apply).to.deep.equal([]);
    expect(lines[3]!.rollback.map((b) => b.block_identifier.hash)).to.deep.equal([
      blocks[2]!.index_block_hash,
      blocks[1]!.index_block_hash,
    ]);
  });

  it('is refused, naming the setting, when the operator names no folder', async () => {
    t = await startTestServer({ STACKHOOKS_V1_PORT: '0' });
    const answer = await register(t, predicate('v1-file', 'out.jsonl'));
    expect(answer.status).to.equal(422);
    expect(answer.body.error).to.equal(
      'networks.mainnet.then_that.file_append.path is refused: no folder is set for file_append (STACKHOOKS_V1_FILE_APPEND_DIR)',
    );
  });

  it('is refused when its path leaves the folder by .. or through a symbolic link', async () => {
    const outside = await makeTempDir();
    try {
      await symlink(outside, join(folder, 'out'));
      t = await startTestServer({ STACKHOOKS_V1_PORT: '0', STACKHOOKS_V1_FILE_APPEND_DIR: folder });
      const up = await register(t, predicate('v1-up', '../escape.jsonl'));
      expect(up.status).to.equal(422);
      expect(up.body.error).to.match(
        /^networks\.mainnet\.then_that\.file_append\.path leaves the file_append folder/,
      );
      const linked = await register(t, predicate('v1-linked', 'out/escape.jsonl'));
      expect(linked.status).to.equal(422);
      expect(linked.body.error).to.match(/through a symbolic link/);
      const list = await fetch(`http://127.0.0.1:${t.server.v1Port}/v1/chainhooks`);
      expect(((await list.json()) as { result: unknown[] }).result).to.deep.equal([]);
    } finally {
      await rm(outside, { recursive: true, force: true });
    }
  });
});
