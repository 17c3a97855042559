import { rm } from 'node:fs/promises';
import { expect } from 'chai';
import { Cl, type ClarityValue } from '@stacks/transactions';
import { MemoryOutbox } from '../../../adapters/outbox/index.js';
import { createStackhooks, type StackhooksOptions } from '../../../apps/server/container.js';
import type { ContractAbi } from '../../../core/chain/contract-abi.js';
import type { ContractCallArg } from '../../../core/chain/transaction-payload.js';
import { NODE_PAUSE_MS } from '../../../core/contracts/node-interfaces.js';
import type { Logger } from '../../../core/ports/logger.js';
import { EvaluationDelivery } from '../../../core/use-cases/evaluation-delivery.js';
import { ChainBuilder, contractCall, type NodeBlock } from '../../support/block-builder.js';
import { sampleDefinition } from '../../support/definitions.js';
import { startFakeNodeRpc, type FakeNodeRpc } from '../../support/fake-node-rpc.js';
import { dropSchema, freshSchemaUrl, postgresAvailable } from '../../support/postgres.js';
import { makeTempDir } from '../../support/temp-dir.js';

const MARKET = 'SPJW1XE278YMCEYMXB8ZFGJMH8ZVAAEDP2S2PJYG.stacks-punks-market';
const MARKET_ABI: ContractAbi = {
  functions: [
    {
      name: 'list-item',
      access: 'public',
      args: [
        { name: 'item-id', type: 'uint128' },
        { name: 'price', type: 'uint128' },
        { name: 'memo', type: { optional: { buffer: { length: 34 } } } },
      ],
      outputs: { type: { response: { ok: 'bool', error: 'uint128' } } },
    },
  ],
  variables: [],
  maps: [],
  fungible_tokens: [],
  non_fungible_tokens: [],
};
const LIST_ITEM_ARGS = [Cl.uint(7), Cl.uint(1_000_000), Cl.none()];

/** A clock the test moves; every use case reads it, so the node's pauses end when the test says. */
class TestClock {
  t = Date.UTC(2026, 0, 1);
  now = () => this.t;
}

/** Warn lines, to count what is logged once per contract. */
class WarnLines implements Logger {
  readonly lines: { msg: string; fields?: Record<string, unknown> }[] = [];
  debug() {}
  info() {}
  error() {}
  warn(msg: string, fields?: Record<string, unknown>) {
    this.lines.push({ msg, fields });
  }
}

type Stack = Awaited<ReturnType<typeof openStack>>;

/** A stackhooks instance over `dataDir` (or a database) asking `node`, with one hook on every contract call. */
async function openStack(
  node: FakeNodeRpc,
  place: { dataDir: string; databaseUrl?: string },
  extra: { timeoutMs?: number; clock?: TestClock; logger?: Logger; restart?: boolean } = {},
) {
  const queue = new MemoryOutbox();
  const options: StackhooksOptions = {
    ...place,
    network: 'mainnet',
    delivery: { allowPrivateTargets: true },
    nodeRpc: { url: node.url, timeoutMs: extra.timeoutMs ?? 1_000 },
    adapters: {
      deliveries: queue,
      logger: extra.logger ?? new WarnLines(),
      ...(extra.clock ? { clock: extra.clock } : {}),
    },
  };
  const stackhooks = await createStackhooks(options);
  // A restarted instance has its hook from the first run.
  if (extra.restart) return { stackhooks, queue };
  const hook = await stackhooks.registry.register('tester', {
    ...sampleDefinition(),
    filters: { events: [{ type: 'contract_call' }] },
    options: { enable_on_registration: true, decode_clarity_values: true },
  });
  return { stackhooks, queue, hook };
}

/** The args of every contract call delivered so far, block by block in delivery order. */
function deliveredArgs(stack: Stack): Pick<ContractCallArg, 'name' | 'type' | 'repr'>[][] {
  return stack.queue
    .all()
    .flatMap((p) => p.body.event.apply)
    .flatMap((b) => b.transactions)
    .flatMap((tx) => tx.operations)
    .filter((op) => op.type === 'contract_call')
    .map((op) =>
      (op.metadata.args as ContractCallArg[]).map(({ name, type, repr }) => ({ name, type, repr })),
    );
}

/** Blocks of one call each, to `contractIds` in turn. */
async function callBlocks(
  chain: ChainBuilder,
  contractIds: string[],
  args: ClarityValue[] = LIST_ITEM_ARGS,
): Promise<NodeBlock[]> {
  const blocks: NodeBlock[] = [];
  for (const contractId of contractIds) {
    const call = await contractCall({
      contractId,
      functionName: 'list-item',
      functionArgs: args,
      nonce: blocks.length,
    });
    blocks.push(chain.next({ transactions: [call] }));
  }
  return blocks;
}

const NAMED = [
  { name: 'item-id', type: 'uint', repr: 'u7' },
  { name: 'price', type: 'uint', repr: 'u1000000' },
  { name: 'memo', type: '(optional (buff 34))', repr: 'none' },
];
const UNNAMED = [
  { name: '', type: 'uint', repr: 'u7' },
  { name: '', type: 'uint', repr: 'u1000000' },
  { name: '', type: '(optional UnknownType)', repr: 'none' },
];

describe("contract-call arguments named from the node's RPC", function () {
  this.timeout(60_000);
  let node: FakeNodeRpc;
  let dataDir: string;
  let open: Stack[];
  beforeEach(async () => {
    node = await startFakeNodeRpc({ [MARKET]: MARKET_ABI });
    dataDir = await makeTempDir();
    open = [];
  });
  afterEach(async () => {
    for (const stack of open) await stack.stackhooks.close();
    await node.close();
    await rm(dataDir, { recursive: true, force: true });
  });
  const start = async (
    ...args: Parameters<typeof openStack> extends [unknown, unknown, ...infer R] ? R : never
  ) => {
    const stack = await openStack(node, { dataDir }, ...args);
    open.push(stack);
    return stack;
  };
  const stop = async (stack: Stack) => {
    open.splice(open.indexOf(stack), 1);
    await stack.stackhooks.close();
  };

  it('names and types the arguments as the node declares them', async () => {
    const stack = await start();
    for (const block of await callBlocks(new ChainBuilder(), [MARKET]))
      await stack.stackhooks.ingest.ingestNodeBlock(block);
    expect(deliveredArgs(stack)).to.deep.equal([NAMED]);
    expect(node.requests).to.deep.equal([MARKET]);
  });

  it('asks once for a contract that many blocks call', async () => {
    const stack = await start();
    const blocks = await callBlocks(new ChainBuilder(), Array(12).fill(MARKET));
    for (const block of blocks) await stack.stackhooks.ingest.ingestNodeBlock(block);
    expect(deliveredArgs(stack)).to.deep.equal(Array(12).fill(NAMED));
    expect(node.requests).to.deep.equal([MARKET]);
    expect(stack.stackhooks.contractAbis.counters).to.include({
      node_requests: 1,
      node_found: 1,
      unnamed_calls: 0,
    });
  });

  it('asks nothing after a restart: the answer was kept in the contract store', async () => {
    const chain = new ChainBuilder();
    const first = await start();
    for (const block of await callBlocks(chain, [MARKET]))
      await first.stackhooks.ingest.ingestNodeBlock(block);
    await stop(first);
    const second = await start({ restart: true });
    for (const block of await callBlocks(chain, [MARKET, MARKET]))
      await second.stackhooks.ingest.ingestNodeBlock(block);
    expect(deliveredArgs(second)).to.deep.equal([NAMED, NAMED]);
    expect(node.requests).to.deep.equal([MARKET]);
  });

  it('lets every block through when the node never answers: one timeout, then a pause with no request', async () => {
    node.mode = 'silent';
    const stack = await start({ timeoutMs: 150 });
    const contracts = Array.from({ length: 20 }, (_, i) => `${MARKET}-${i}`);
    for (const block of await callBlocks(new ChainBuilder(), contracts))
      await stack.stackhooks.ingest.ingestNodeBlock(block);
    expect(deliveredArgs(stack)).to.deep.equal(Array(20).fill(UNNAMED));
    // Only the first block's contract was asked about; the 19 blocks after it waited on nothing.
    expect(node.requests).to.deep.equal([contracts[0]]);
    expect(stack.stackhooks.contractAbis.counters).to.include({ node_pauses: 1, unnamed_calls: 20 });
  });

  for (const mode of ['error', 'garbage'] as const) {
    it(`falls back to unnamed arguments when the node answers ${mode === 'error' ? '500' : 'garbage'}, asking again only later`, async () => {
      node.mode = mode;
      const stack = await start();
      const blocks = await callBlocks(new ChainBuilder(), [MARKET, MARKET, MARKET]);
      for (const block of blocks) await stack.stackhooks.ingest.ingestNodeBlock(block);
      expect(deliveredArgs(stack)).to.deep.equal([UNNAMED, UNNAMED, UNNAMED]);
      expect(node.requests).to.deep.equal([MARKET]);
      expect(stack.stackhooks.contractAbis.counters).to.include({ node_refused: 1, node_pauses: 0 });
    });
  }

  it('counts every unnamed call and logs each contract once', async () => {
    node.interfaces.clear();
    const logger = new WarnLines();
    const stack = await start({ logger });
    const blocks = await callBlocks(new ChainBuilder(), [MARKET, MARKET, `${MARKET}-2`]);
    for (const block of blocks) await stack.stackhooks.ingest.ingestNodeBlock(block);
    const unnamed = logger.lines.filter((line) => line.msg.startsWith('no ABI for a called contract'));
    expect(unnamed.map((line) => line.fields?.contract)).to.deep.equal([MARKET, `${MARKET}-2`]);
    expect(stack.stackhooks.contractAbis.counters).to.include({
      unnamed_calls: 3,
      unnamed_contracts: 2,
      node_not_found: 2,
    });
  });

  it('names, in an evaluation, calls archived unnamed before the node could answer', async () => {
    node.mode = 'silent';
    const clock = new TestClock();
    const stack = await start({ timeoutMs: 150, clock });
    const [block] = await callBlocks(new ChainBuilder(), [MARKET]);
    await stack.stackhooks.ingest.ingestNodeBlock(block);
    expect(deliveredArgs(stack)).to.deep.equal([UNNAMED]);
    await stack.stackhooks.contractAbis.idle();

    node.mode = 'answer';
    clock.t += NODE_PAUSE_MS;
    await stack.stackhooks.evaluations.request('tester', stack.hook!.uuid, {
      block_height: block.block_height,
    });
    await stack.stackhooks.container.get(EvaluationDelivery).idle();
    expect(deliveredArgs(stack)).to.deep.equal([UNNAMED, NAMED]);
  });

  it('names, in a rollback, calls archived unnamed before the node answered', async () => {
    node.mode = 'error';
    const clock = new TestClock();
    const stack = await start({ clock });
    const chain = new ChainBuilder();
    const parent = chain.next();
    const [called] = await callBlocks(chain, [MARKET]);
    await stack.stackhooks.ingest.ingestNodeBlock(parent);
    await stack.stackhooks.ingest.ingestNodeBlock(called);
    node.mode = 'answer';
    clock.t += 60 * 60_000;
    // A sibling replaces the block: the rollback shows the block as archived, named now.
    const sibling = chain.forkFrom(parent.index_block_hash).next();
    await stack.stackhooks.ingest.ingestNodeBlock(sibling);
    const rollback = stack.queue.all().at(-1)!.body.event.rollback;
    const op = rollback[0].transactions[0].operations.find((o) => o.type === 'contract_call')!;
    expect((op.metadata.args as ContractCallArg[]).map((a) => a.name)).to.deep.equal([
      'item-id',
      'price',
      'memo',
    ]);
  });
});

// The same restart over Postgres: the learned ABI is a row of the contracts table.
if (await postgresAvailable()) {
  describe("contract-call arguments named from the node's RPC, on Postgres", function () {
    this.timeout(60_000);

    it('asks nothing after a restart: the answer was kept in the contracts table', async () => {
      const node = await startFakeNodeRpc({ [MARKET]: MARKET_ABI });
      const dataDir = await makeTempDir();
      const databaseUrl = freshSchemaUrl('abis');
      try {
        const chain = new ChainBuilder();
        const first = await openStack(node, { dataDir, databaseUrl });
        for (const block of await callBlocks(chain, [MARKET]))
          await first.stackhooks.ingest.ingestNodeBlock(block);
        await first.stackhooks.close();
        const second = await openStack(node, { dataDir, databaseUrl }, { restart: true });
        try {
          for (const block of await callBlocks(chain, [MARKET]))
            await second.stackhooks.ingest.ingestNodeBlock(block);
          expect(deliveredArgs(second)).to.deep.equal([NAMED]);
        } finally {
          await second.stackhooks.close();
        }
        expect(node.requests).to.deep.equal([MARKET]);
      } finally {
        await node.close();
        await rm(dataDir, { recursive: true, force: true });
        await dropSchema(databaseUrl);
      }
    });
  });
}
