import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { ChainGap } from '../../core/chain/chain-gap.js';
import type { ReceivedBody } from '../../core/use-cases/archive-blocks.js';
import type { Network } from '../../core/hooks/definition.js';
import { readReplayTsv, type ReadProgress } from '../../adapters/ingest-stacks-node/index.js';
import type { NodeRpcOptions } from '../../adapters/node-rpc/index.js';
import { openBlockArchiver } from '../server/archiver-container.js';
import { lockDataDir } from '../server/data-dir-lock.js';
import { checkRecordingNetwork } from './recording-network.js';
import type { ProgressLine } from './progress-line.js';
import { counted, megabytes, percent } from './progress-line.js';

/** Blocks archived in one batch (one transaction on Postgres)... */
const BATCH_BLOCKS = 500;
/** ...or fewer, so that a run of busy blocks (hundreds of KB of JSON each) stays small in memory. */
const BATCH_BYTES = 8 * 1024 * 1024;

/** How far an import of one file got, kept so an interrupted import resumes. */
type ImportCheckpoint = { file: string; line: number; blocks: number; done: boolean };

/** What an import did. */
export type ImportSummary = {
  /** `/new_block` lines read (duplicates included). */
  blocks: number;
  /** Blocks the archive did not have before. */
  archived: number;
  skippedLines: number;
  seconds: number;
  resumedFromLine: number;
  /** Contract calls archived with unnamed arguments (no ABI known), and the contracts they call. */
  unnamedCalls: number;
  unnamedContracts: number;
  /** Gaps this import opened and closed (filled, or merged into a wider one). */
  gapsOpened: number;
  gapsClosed: number;
  /** Blocks archived with transactions that could not be read, and bodies that were no block at all. */
  unreadableBlocks: number;
  quarantinedBodies: number;
  /** The gaps the archive still has after the import, lowest first. */
  openGaps: ChainGap[];
};

/**
 * `stackhooks import FILE`: read an event-replay TSV into the archive and the canonical chain,
 * streaming, without delivering anything. Resumable: progress is saved every 1,000 lines, and a
 * second run skips what the first finished (the archive ignores blocks it already has).
 */
export async function runImport(
  file: string,
  options: {
    dataDir: string;
    network: Network;
    progress?: ProgressLine;
    databaseUrl?: string;
    nodeRpc?: NodeRpcOptions;
  },
): Promise<ImportSummary> {
  const path = resolve(file);
  // Refused before the store is opened: a recording of another network never reaches it.
  await checkRecordingNetwork(path, options.network);
  const lock = options.databaseUrl ? undefined : await lockDataDir(options.dataDir);
  const opened = await openBlockArchiver(options).catch(async (err: unknown) => {
    await lock?.release();
    throw err;
  });
  const { archiver, contractAbis, notices, blocks: store, close } = opened;
  const checkpointFile = join(
    options.dataDir,
    'imports',
    `${createHash('sha256').update(path).digest('hex')}.json`,
  );
  const checkpoint = await readCheckpoint(checkpointFile, path);
  const read: ReadProgress = { bytesRead: 0, totalBytes: 0, textBytes: 0 };
  const before = await archiver.archivedBlocks();
  const started = Date.now();
  let blocks = checkpoint.blocks;
  let skippedLines = 0;
  let lastLine = checkpoint.line;
  const show = (force = false) =>
    options.progress?.update(
      (s) =>
        `import: ${counted(blocks, 'block')}, ${(blocks / Math.max(s, 0.001)).toFixed(0)} blocks/s, ` +
        `${megabytes(read.textBytes)} read (${percent(read.bytesRead, read.totalBytes)})`,
      force,
    );
  // Blocks are archived in batches; the checkpoint only ever names a line whose blocks are stored.
  const batchBlocks = archiver.writesBatches() ? BATCH_BLOCKS : 1;
  let batch: ReceivedBody[] = [];
  let batchBytes = 0;
  let savedLine = checkpoint.line;
  const flush = async () => {
    if (batch.length > 0) await archiver.archiveBodies(batch);
    batch = [];
    batchBytes = 0;
    // Progress is saved every 1,000 lines: a resumed import redoes at most that (the archive skips it).
    if (lastLine - savedLine >= 1000) {
      await saveCheckpoint(checkpointFile, { file: path, line: lastLine, blocks, done: false });
      savedLine = lastLine;
    }
  };
  try {
    for await (const line of readReplayTsv(path, read)) {
      if (line.line <= checkpoint.line) {
        skippedLines++;
        continue;
      }
      if (line.path === '/new_block') {
        batch.push({ body: line.body, source: { file: path, line: line.line } });
        batchBytes += line.body.length;
        blocks++;
      }
      lastLine = line.line;
      if (batch.length >= batchBlocks || batchBytes >= BATCH_BYTES || lastLine % 1000 === 0) await flush();
      show();
    }
    await flush();
    await saveCheckpoint(checkpointFile, { file: path, line: lastLine, blocks, done: true });
    show(true);
    options.progress?.done();
    const archived = (await archiver.archivedBlocks()) - before;
    const seconds = (Date.now() - started) / 1000;
    const { unnamed_calls, unnamed_contracts } = contractAbis.counters;
    const told = notices.counters;
    return {
      blocks,
      archived,
      skippedLines,
      seconds,
      resumedFromLine: checkpoint.line,
      unnamedCalls: unnamed_calls,
      unnamedContracts: unnamed_contracts,
      gapsOpened: told.gapsOpened,
      gapsClosed: told.gapsClosed,
      unreadableBlocks: told.unreadableBlocks,
      quarantinedBodies: told.quarantinedBodies,
      openGaps: (await store.chainState(0)).gaps,
    };
  } finally {
    await close();
    await lock?.release();
  }
}

async function readCheckpoint(file: string, path: string): Promise<ImportCheckpoint> {
  try {
    const saved = JSON.parse(await readFile(file, 'utf8')) as ImportCheckpoint;
    // A finished import of the same file is done again from the start: the archive skips its blocks.
    if (saved.file === path && !saved.done) return saved;
  } catch {
    // no checkpoint yet
  }
  return { file: path, line: 0, blocks: 0, done: false };
}

async function saveCheckpoint(file: string, checkpoint: ImportCheckpoint): Promise<void> {
  await mkdir(join(file, '..'), { recursive: true });
  await writeFile(`${file}.tmp`, JSON.stringify(checkpoint));
  await rename(`${file}.tmp`, file);
}

/** How many gaps an import shows at most; the status route lists them all (within its bound). */
const GAPS_SHOWN = 5;

/** What an import did to the chain beyond archiving blocks, as lines for the operator (none when nothing). */
export function chainLines(summary: ImportSummary): string[] {
  const lines: string[] = [];
  if (summary.gapsClosed > 0)
    lines.push(`closed ${summary.gapsClosed} gap(s) in the chain (nothing was delivered for them)`);
  if (summary.gapsOpened > 0) lines.push(`opened ${summary.gapsOpened} gap(s): the recording skips blocks`);
  if (summary.unreadableBlocks > 0)
    lines.push(`${summary.unreadableBlocks} block(s) archived with transactions that could not be read`);
  if (summary.quarantinedBodies > 0)
    lines.push(`${summary.quarantinedBodies} body(ies) could not become a block and were quarantined`);
  for (const gap of summary.openGaps.slice(0, GAPS_SHOWN))
    lines.push(`the chain still misses heights ${gap.from_height} to ${gap.to_height}`);
  if (summary.openGaps.length > GAPS_SHOWN)
    lines.push(`... and ${summary.openGaps.length - GAPS_SHOWN} more gap(s) (see the status route)`);
  return lines;
}
