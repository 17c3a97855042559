import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { NodeBlock } from '../../core/stacks-codec/node-block.js';
import type { Network } from '../../core/hooks/definition.js';
import { readReplayTsv, type ReadProgress } from '../../adapters/ingest-stacks-node/index.js';
import type { NodeRpcOptions } from '../../adapters/node-rpc/index.js';
import { openBlockArchiver } from '../server/archiver-container.js';
import { lockDataDir } from '../server/data-dir-lock.js';
import type { ProgressLine } from './progress-line.js';
import { megabytes } from './progress-line.js';

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
  const lock = options.databaseUrl ? undefined : await lockDataDir(options.dataDir);
  const { archiver, contractAbis, close } = await openBlockArchiver(options);
  const checkpointFile = join(
    options.dataDir,
    'imports',
    `${createHash('sha256').update(path).digest('hex')}.json`,
  );
  const checkpoint = await readCheckpoint(checkpointFile, path);
  const read: ReadProgress = { bytesRead: 0, totalBytes: 0 };
  const before = await archiver.archivedBlocks();
  const started = Date.now();
  let blocks = checkpoint.blocks;
  let skippedLines = 0;
  let lastLine = checkpoint.line;
  const show = (force = false) =>
    options.progress?.update(
      (s) =>
        `import: ${blocks} blocks, ${(blocks / Math.max(s, 0.001)).toFixed(0)} blocks/s, ` +
        `${megabytes(read.bytesRead)} of ${megabytes(read.totalBytes)}`,
      force,
    );
  // Blocks are archived in batches; the checkpoint only ever names a line whose blocks are stored.
  const batchBlocks = archiver.writesBatches() ? BATCH_BLOCKS : 1;
  let batch: NodeBlock[] = [];
  let batchBytes = 0;
  let savedLine = checkpoint.line;
  const flush = async () => {
    if (batch.length > 0) await archiver.archiveNodeBlocks(batch);
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
        batch.push(JSON.parse(line.body) as NodeBlock);
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
    return {
      blocks,
      archived,
      skippedLines,
      seconds,
      resumedFromLine: checkpoint.line,
      unnamedCalls: unnamed_calls,
      unnamedContracts: unnamed_contracts,
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
