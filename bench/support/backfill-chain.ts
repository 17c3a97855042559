// The backfill bench's archive: a long synthetic chain written straight into the embedded archive,
// every block carrying one real signed STX transfer (with its event), and every `every`-th block
// also an FT transfer event of one asset that appears nowhere else. A hook on that asset matches
// 1 block in `every` (the selective scan); a hook on STX transfers matches every block. Built once
// and kept under /tmp with a marker, so reruns reuse it.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { openFsArchive } from '../../adapters/archive-fs/index.js';
import type { NormalizedBlock } from '../../core/chain/block.js';
import type { StoredHook } from '../../core/hooks/record.js';
import { normalizeBlock } from '../../core/stacks-codec/normalize-block.js';
import { matchedTransactions } from '../../core/use-cases/block-payload.js';
import {
  ChainBuilder,
  TEST_KEYS,
  addressOf,
  events,
  stxTransfer,
  withEvents,
} from '../../test/support/block-builder.js';

/** The asset only the sprinkled blocks move. */
export const RARE_ASSET = 'SP3K8BC0PPEVCV7NZ6QSRWPQ2JE9E5B6N3PA0KBR9.token-alex::alex';

/** What was built: the chain's heights are 1..blocks, and the rare blocks are the multiples of `every`. */
export type BackfillChain = { blocks: number; every: number; archiveDir: string; bytes?: number };

/** The hash of the synthetic block at `height`. */
export function chainHash(height: number): string {
  return `0x${createHash('sha256').update(`stackhooks bench/backfill ${height}`).digest('hex')}`;
}

async function templates(): Promise<{ common: NormalizedBlock; rare: NormalizedBlock }> {
  const bob = addressOf(TEST_KEYS.bob);
  const alice = addressOf(TEST_KEYS.alice);
  const transfer = await stxTransfer({ recipient: bob, amount: 7n });
  const rareTx = withEvents(
    await stxTransfer({ recipient: bob, amount: 9n }),
    events.ftTransfer({ asset: RARE_ASSET, sender: alice, recipient: bob, amount: 3n }),
  );
  const chain = new ChainBuilder({ label: 'bench backfill' });
  const context = { network: 'mainnet' as const, lookupAbi: () => undefined };
  return {
    common: normalizeBlock(chain.next({ transactions: [transfer] }), context).block,
    rare: normalizeBlock(chain.next({ transactions: [rareTx] }), context).block,
  };
}

/** The block at `height`: the template under this height's identifiers. */
function blockAt(template: NormalizedBlock, height: number): NormalizedBlock {
  return {
    ...template,
    block_identifier: { index: height, hash: chainHash(height) },
    parent_block_identifier: { index: height - 1, hash: chainHash(height - 1) },
    timestamp: 1_700_000_000 + height,
  };
}

/** The synthetic chain's block at each height: the rare template at multiples of `every`, else the common one. */
export async function syntheticBlocks(every: number): Promise<(height: number) => NormalizedBlock> {
  const { common, rare } = await templates();
  return (height) => blockAt(height % every === 0 ? rare : common, height);
}

/**
 * The archive of `blocks` blocks under `cacheDir` (its `archive` folder), built unless a complete
 * build of the same shape is there. `progress` hears of every 100,000 blocks built.
 */
export async function backfillChain(
  cacheDir: string,
  blocks: number,
  every: number,
  progress: (line: string) => void,
): Promise<BackfillChain> {
  const marker = join(cacheDir, 'built.json');
  const archiveDir = join(cacheDir, 'archive');
  if (existsSync(marker)) {
    const built = JSON.parse(await readFile(marker, 'utf8')) as BackfillChain;
    if (built.blocks === blocks && built.every === every) return { ...built, archiveDir };
  }
  await rm(cacheDir, { recursive: true, force: true });
  await mkdir(cacheDir, { recursive: true });
  const blockAtHeight = await syntheticBlocks(every);
  const archive = await openFsArchive(archiveDir);
  const start = performance.now();
  try {
    for (let height = 1; height <= blocks; height++) {
      await archive.put(blockAtHeight(height));
      if (height % 100_000 === 0) {
        const seconds = (performance.now() - start) / 1000;
        progress(`built ${height} blocks in ${seconds.toFixed(0)} s`);
      }
    }
  } finally {
    await archive.close();
  }
  const built: BackfillChain = { blocks, every, archiveDir };
  await writeFile(marker, JSON.stringify(built));
  return built;
}

/** One way of reading the archive's canonical blocks, timed: blocks a second, wall and per CPU-second. */
export type ReadRate = { perSecond: number; perCpuSecond: number };

/**
 * The scan's reading and matching without the server, two ways over the same `count` heights: one
 * `getCanonicalAt` a height (how scans read before `canonicalRange`), and `canonicalRange` in
 * chunks of 32. Each block is matched against a hook on the rare asset, as the selective scan does.
 */
export async function compareReads(
  archiveDir: string,
  count: number,
  every: number,
): Promise<{ byHeight: ReadRate; byRange: ReadRate }> {
  const archive = await openFsArchive(archiveDir);
  const hook = {
    definition: { filters: { events: [{ type: 'ft_transfer', asset_identifier: RARE_ASSET }] } },
  };
  const timed = async (read: (from: number, to: number) => Promise<(NormalizedBlock | undefined)[]>) => {
    const wall = performance.now();
    const cpu = process.cpuUsage();
    let matched = 0;
    for (let from = 1; from <= count; from += 32) {
      for (const block of await read(from, Math.min(count, from + 31))) {
        if (block && matchedTransactions(hook as StoredHook, block).length > 0) matched++;
      }
    }
    if (matched !== Math.floor(count / every)) throw new Error(`matched ${matched} blocks`);
    const { user, system } = process.cpuUsage(cpu);
    return {
      perSecond: count / ((performance.now() - wall) / 1000),
      perCpuSecond: count / ((user + system) / 1e6),
    };
  };
  try {
    const oneByOne = async (from: number, to: number) => {
      const blocks: (NormalizedBlock | undefined)[] = [];
      for (let height = from; height <= to; height++) blocks.push(await archive.getCanonicalAt(height));
      return blocks;
    };
    const range = (from: number, to: number) => archive.canonicalRange(from, to);
    // Interleaved twice, the better of each kept: neither gets all the warm-up or all the noise.
    const best = (a: ReadRate, b: ReadRate) => (a.perCpuSecond >= b.perCpuSecond ? a : b);
    const firstHeight = await timed(oneByOne);
    const firstRange = await timed(range);
    const byHeight = best(firstHeight, await timed(oneByOne));
    const byRange = best(firstRange, await timed(range));
    return { byHeight, byRange };
  } finally {
    await archive.close();
  }
}
