// Shared access to the recorded node traffic in ../shared/fixtures, read in place (never copied).
import { existsSync, createReadStream } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { createGunzip } from 'node:zlib';

const projectRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * Every node-format recording, with the network its transactions were made for; mainnet ones
 * first, so that a reader feeding deploys' ABIs forward has genesis ABIs for later mainnet calls.
 */
export const NODE_RECORDINGS: readonly { file: string; network: 'mainnet' | 'testnet' }[] = [
  { file: 'stacks-blockchain-api/mainnet-block0.tsv', network: 'mainnet' },
  { file: 'stacks-blockchain-api/mainnet-reorg-scenario1.tsv', network: 'mainnet' },
  { file: 'stacks-blockchain-api/mainnet-out-of-order-microblock.tsv', network: 'mainnet' },
  { file: 'stacks-blockchain-api/poisonmicroblock.tsv', network: 'mainnet' },
  { file: 'stacks-blockchain-api/epoch-3-transition.tsv.gz', network: 'testnet' },
  { file: 'stacks-blockchain-api/regtest-env-pox-4-stack-stx-in-reward-phase-S3.tsv.gz', network: 'testnet' },
  { file: 'signer-metrics-api/stackerdb-sample-events.tsv.gz', network: 'testnet' },
];

/** One recorded observer request: a line of an event-replay TSV. */
export type ReplayRequest = { id: string; received_at: string; path: string; body: unknown };

/** The fixtures folder: `STACKHOOKS_FIXTURES` if set, else `../shared/fixtures` if it exists, else undefined. */
export function fixturesDir(): string | undefined {
  const fromEnv = process.env.STACKHOOKS_FIXTURES;
  if (fromEnv) return resolve(fromEnv);
  const sibling = resolve(projectRoot, '..', 'shared', 'fixtures');
  return existsSync(sibling) ? sibling : undefined;
}

/** The absolute path of a file under the fixtures folder; throws when there is no fixtures folder. */
export function fixturePath(relPath: string): string {
  const dir = fixturesDir();
  if (!dir) throw new Error('no fixtures folder: set STACKHOOKS_FIXTURES or provide ../shared/fixtures');
  return join(dir, relPath);
}

/** Streams the requests of an event-replay TSV (`.gz` decompressed on the fly), in file order. */
export async function* readReplayTsv(relPath: string): AsyncIterable<ReplayRequest> {
  const file = fixturePath(relPath);
  const raw = createReadStream(file);
  const input = file.endsWith('.gz') ? raw.pipe(createGunzip()) : raw;
  const lines = createInterface({ input, crlfDelay: Infinity });
  for await (const line of lines) {
    if (line.trim() === '') continue;
    const [id, received_at, path, ...rest] = line.split('\t');
    yield { id, received_at, path, body: JSON.parse(rest.join('\t')) };
  }
}

/**
 * The requests of an event-replay TSV in the order the node posted them: by id. A dump need not list
 * them in that order (the stackerdb recording does not), and a chain fed out of order has gaps.
 */
export async function readPostedRequests(relPath: string): Promise<ReplayRequest[]> {
  const requests: ReplayRequest[] = [];
  for await (const request of readReplayTsv(relPath)) requests.push(request);
  return requests.sort((a, b) => Number(a.id) - Number(b.id));
}

/**
 * `describe` when the fixtures exist; otherwise one pending test that says why the suite is
 * skipped, so a run without ../shared reports it instead of passing silently.
 */
export function describeWithFixtures(title: string, fn: (this: Mocha.Suite) => void): void {
  if (fixturesDir()) {
    describe(title, fn);
    return;
  }
  describe(title, () => {
    it(`is skipped because ../shared/fixtures is absent (set STACKHOOKS_FIXTURES)`);
  });
}
