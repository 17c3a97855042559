import { readFile } from 'node:fs/promises';
import { parsePredicate } from '../../core/chainhook-v1/parse-predicate.js';
import type { NetworkPredicate, StacksPredicate } from '../../core/chainhook-v1/predicate.js';
import type { ChainhookV1Payload } from '../../core/chainhook-v1/v1-payload.js';
import { serializePayload } from '../../core/payload/index.js';
import { scanPredicate, type ScanTally } from '../../core/use-cases/predicate-scan.js';
import { openBlockArchiver } from '../server/archiver-container.js';
import { ConfigError, type ServerConfig } from '../server/config.js';
import { lockDataDir } from '../server/data-dir-lock.js';
import { counted, percent, type ProgressLine } from './progress-line.js';
import { predicateAction, type PayloadSink } from './scan-action.js';

/** What `predicates scan` is told beyond the server's configuration. */
export type ScanOptions = {
  /** Heights to scan instead of the predicate's `start_block` / `end_block`. */
  startBlock?: number;
  endBlock?: number;
  /** Perform the predicate's `then_that` (post or append) instead of printing the payloads. */
  thenThat?: boolean;
  progress?: ProgressLine;
  /** Where printed payloads go, one JSON line each (standard output by default). */
  out?: (line: string) => Promise<void>;
};

/** What a scan did, for its closing line. */
export type ScanSummary = ScanTally & {
  from: number;
  to: number;
  /** The end asked for (flag or end_block), when one was; it may lie above the tip. */
  requestedTo: number | undefined;
  tip: number;
  seconds: number;
};

/**
 * `stackhooks predicates scan FILE`: read a Chainhook 1.x predicate file, evaluate it over the
 * archive's canonical chain (the predicate's `start_block`..`end_block`, by default all of it), and
 * print each match's 1.x payload as a JSON line, or perform the predicate's action with it.
 */
export async function runScan(
  file: string,
  config: ServerConfig,
  options: ScanOptions = {},
): Promise<ScanSummary> {
  const { predicate, part } = await readPredicateFile(file, config);
  const sink: PayloadSink = options.thenThat
    ? await predicateAction(part, config)
    : { take: (payload) => (options.out ?? writeLine)(serializePayload(payload)), close: async () => {} };
  const lock = config.databaseUrl ? undefined : await lockDataDir(config.dataDir);
  try {
    const opened = await openBlockArchiver({
      dataDir: config.dataDir,
      network: config.network,
      databaseUrl: config.databaseUrl,
    });
    try {
      const tip = (await opened.blocks.tip())?.height;
      if (tip === undefined)
        throw new ConfigError(
          'the archive is empty: fill it first (stackhooks import FILE, or stackhooks serve)',
        );
      const from = options.startBlock ?? part.start_block ?? 0;
      const requestedTo = options.endBlock ?? part.end_block;
      const to = Math.min(requestedTo ?? tip, tip);
      const started = Date.now();
      const tally = await scanPredicate(
        { blocks: opened.blocks, uuid: predicate.uuid, predicate: part, network: config.network, from, to },
        (payload: ChainhookV1Payload) => sink.take(payload),
        (now) =>
          options.progress?.update(
            (s) =>
              `scan: height ${now.height} of ${to} (${percent(now.height - from + 1, to - from + 1)}), ` +
              `${counted(now.scanned, 'block')} scanned, ${now.matched} matched, ` +
              `${(now.scanned / Math.max(s, 0.001)).toFixed(0)} blocks/s`,
          ),
      );
      options.progress?.done();
      return { ...tally, from, to, requestedTo, tip, seconds: (Date.now() - started) / 1000 };
    } finally {
      await opened.close();
    }
  } finally {
    await sink.close();
    await lock?.release();
  }
}

/** The closing lines of a scan, for standard error. */
export function scanLines(summary: ScanSummary): string[] {
  if (summary.from > summary.to)
    return [`nothing scanned: start block ${summary.from} is above the archive's tip ${summary.tip}`];
  const lines = [
    `scanned ${counted(summary.scanned, 'block')} of heights ${summary.from} to ${summary.to}: ` +
      `${summary.matched} matched in ${summary.seconds.toFixed(1)} s`,
  ];
  if (summary.missing > 0)
    lines.push(
      `${counted(summary.missing, 'height')} had no block in the archive (a gap, or below its first block)`,
    );
  if (summary.expired) lines.push(`stopped at height ${summary.height}: expire_after_occurrence was reached`);
  if (summary.requestedTo !== undefined && summary.requestedTo > summary.tip)
    lines.push(
      `end block ${summary.requestedTo} is above the archive's tip ${summary.tip}: scanned to the tip`,
    );
  return lines;
}

/** The predicate in the file and its part for the network served, or a ConfigError saying what is wrong. */
export async function readPredicateFile(
  file: string,
  config: Pick<ServerConfig, 'network'>,
): Promise<{ predicate: StacksPredicate; part: NetworkPredicate }> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    throw new ConfigError(`cannot read ${file} (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (err) {
    throw new ConfigError(`${file} is not JSON: ${(err as Error).message}`);
  }
  const read = parsePredicate(body);
  if (!read.ok) throw new ConfigError(`${file}: ${read.problems.join('; ')}`);
  const part = read.predicate.networks[config.network];
  if (!part)
    throw new ConfigError(
      `${file} has no networks.${config.network}: the archive follows ${config.network} (set STACKHOOKS_NETWORK or --network)`,
    );
  return { predicate: read.predicate, part };
}

/** Standard output was closed by its reader (`| head`): the scan stops there, quietly. */
export class OutputClosed extends Error {
  override readonly name = 'OutputClosed';
}

let quietStdoutErrors = false;

// Waits for standard output to drain, so a slow reader slows the scan instead of filling memory.
function writeLine(line: string): Promise<void> {
  // The failed write's callback reports it; without a listener the stream's own error event would end the process.
  if (!quietStdoutErrors) {
    quietStdoutErrors = true;
    process.stdout.on('error', () => undefined);
  }
  return new Promise((resolve, reject) => {
    process.stdout.write(`${line}\n`, (err) => {
      if (!err) resolve();
      else reject((err as NodeJS.ErrnoException).code === 'EPIPE' ? new OutputClosed('stdout closed') : err);
    });
  });
}
