// The import half of the Postgres bench: `runImport` of one archive file into a fresh schema and into
// a fresh embedded data folder, blocks a second.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runImport } from '../../apps/cli/import-command.js';
import { recordingNetwork } from '../../apps/cli/recording-network.js';
import { dropBenchSchema, freshBenchSchema } from './pg-schema.js';

/** One import: `/new_block` lines read, blocks newly archived, and the rates. */
export type ImportRun = {
  blocks: number;
  archived: number;
  /** Blocks a second as `runImport` times itself (stores already open). */
  rate: number;
  /** Blocks a second including opening (and on Postgres migrating) the stores. */
  wallRate: number;
};

/** Import `file` into a fresh store: Postgres when `postgres` is set, else the embedded default. */
export async function importOnce(file: string, postgres: boolean): Promise<ImportRun> {
  const dataDir = await mkdtemp(join(tmpdir(), 'stackhooks-bench-pg-import-'));
  const schema = postgres ? freshBenchSchema() : undefined;
  try {
    const start = performance.now();
    // The store serves the recording's network: an import of another network's file is refused.
    const network = (await recordingNetwork(file))?.network ?? 'mainnet';
    const summary = await runImport(file, { dataDir, network, databaseUrl: schema?.url });
    const wall = (performance.now() - start) / 1000;
    return {
      blocks: summary.blocks,
      archived: summary.archived,
      rate: summary.blocks / Math.max(summary.seconds, 0.001),
      wallRate: summary.blocks / wall,
    };
  } finally {
    if (schema) await dropBenchSchema(schema.schema);
    await rm(dataDir, { recursive: true, force: true });
  }
}
