import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Network } from '../../core/hooks/definition.js';

/** Thrown when a store was created for another network than the one a process serves; exits non-zero. */
export class StoreNetworkError extends Error {
  override name = 'StoreNetworkError';
}

/** The file in the data folder that records the network it was created for. */
export const NETWORK_FILE = 'network.json';

/**
 * Refuse a store (`where`: "the data folder ./data", "the database schema public") that was created
 * for another network than `network`, naming both.
 */
export function checkStoreNetwork(recorded: string, network: Network, where: string): void {
  if (recorded === network) return;
  throw new StoreNetworkError(
    `${where} was created for ${recorded}, and this process serves ${network} (STACKHOOKS_NETWORK): ` +
      `one store serves one network. Use another data folder or schema for ${network}, ` +
      `or set STACKHOOKS_NETWORK=${recorded}.`,
  );
}

/**
 * The network of the data folder: the one `network.json` records, or `network`, which is then
 * recorded (a new folder, or one from before the record). Refuses a folder of another network.
 * Returns whether it recorded it now.
 */
export async function claimDataFolderNetwork(
  dataDir: string,
  network: Network,
  now: number,
): Promise<{ recorded: boolean }> {
  const file = join(dataDir, NETWORK_FILE);
  let recorded: string | undefined;
  try {
    recorded = (JSON.parse(await readFile(file, 'utf8')) as { network?: string }).network;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  if (recorded !== undefined) {
    checkStoreNetwork(recorded, network, `the data folder ${dataDir}`);
    return { recorded: false };
  }
  // Private like the rest of the data folder (it holds consumer secrets and key hashes).
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  await writeFile(`${file}.tmp`, `${JSON.stringify({ network, recorded_at: now })}\n`);
  await rename(`${file}.tmp`, file);
  return { recorded: true };
}
