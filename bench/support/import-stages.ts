// The stages of an import timed one by one, in process, on the same file the import reads: streaming
// the TSV, JSON.parse of the `/new_block` bodies, normalizeBlock, and the archive's put. Comparing
// their sum with the measured import shows where the time goes and what is left for the rest.
import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { openFsArchive } from '../../adapters/archive-fs/index.js';
import { readReplayTsv } from '../../adapters/ingest-stacks-node/index.js';
import type { ChainNetwork } from '../../core/stacks-codec/network.js';
import type { NodeBlock } from '../../core/stacks-codec/node-block.js';
import { normalizeBlock } from '../../core/stacks-codec/normalize-block.js';
import { timedRate } from './measure.js';

/** Seconds each stage took for the whole file in one round. */
export type StageTimes = { read: number; parse: number; normalize: number; put: number };

/**
 * Time each stage for the whole of `file`: one streaming read, JSON.parse and normalizeBlock
 * repeated for at least `seconds` (they are pure, so repeats are cheap to trust), and one put of
 * every block, in file order and duplicates included, into a fresh archive under `tempDir`
 * (closing it, which makes it durable, counted). Unknown ABIs stay unknown, as on a first import;
 * c32 addresses are memoized across blocks, as the import does.
 */
export async function timeImportStages(
  file: string,
  network: ChainNetwork,
  tempDir: string,
  seconds: number,
): Promise<StageTimes> {
  let start = performance.now();
  const bodies: string[] = [];
  for await (const line of readReplayTsv(file)) if (line.path === '/new_block') bodies.push(line.body);
  const read = (performance.now() - start) / 1000;

  const parse = 1 / timedRate(() => bodies.forEach((body) => JSON.parse(body)), 1, seconds).rate;
  const blocks = bodies.map((body) => JSON.parse(body) as NodeBlock);
  // One address memo for the whole file, as the import's BlockArchiver keeps one across blocks.
  const context = { network, lookupAbi: () => undefined, addresses: new Map<string, string>() };
  const normalize =
    1 / timedRate(() => blocks.forEach((block) => normalizeBlock(block, context)), 1, seconds).rate;
  const normalized = blocks.map((block) => normalizeBlock(block, context).block);

  const dir = await mkdtemp(join(tempDir, 'archive-'));
  try {
    const archive = await openFsArchive(dir);
    start = performance.now();
    for (const block of normalized) await archive.put(block);
    await archive.close();
    const put = (performance.now() - start) / 1000;
    await checkArchived(
      dir,
      new Set(normalized.map((block) => block.block_identifier.hash.toLowerCase())).size,
    );
    return { read, parse, normalize, put };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Reopen the archive and make sure every distinct block is there: a put that stored nothing is no result. */
async function checkArchived(dir: string, distinct: number): Promise<void> {
  const archive = await openFsArchive(dir);
  try {
    const count = await archive.count();
    if (count !== distinct)
      throw new Error(`stage bench: archive holds ${count} blocks, expected ${distinct}`);
  } finally {
    await archive.close();
  }
}
