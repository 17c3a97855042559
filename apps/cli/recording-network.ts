import type { Network } from '../../core/hooks/definition.js';
import { transactionNetwork } from '../../core/stacks-codec/network.js';
import { readReplayTsv } from '../../adapters/ingest-stacks-node/index.js';
import { StoreNetworkError } from '../server/store-network.js';

/** Blocks read from the start of a recording to find a transaction that tells its network. */
const BLOCKS_LOOKED_AT = 100;

/**
 * The network a recording's transactions were made for: that of the first transaction with a
 * version byte (every block from the first tenure on has one, its coinbase), with its line;
 * undefined when the first blocks hold none.
 */
export async function recordingNetwork(
  path: string,
): Promise<{ network: Network; line: number } | undefined> {
  let blocks = 0;
  for await (const line of readReplayTsv(path)) {
    if (line.path !== '/new_block') continue;
    let transactions: unknown;
    try {
      transactions = (JSON.parse(line.body) as { transactions?: unknown }).transactions;
    } catch {
      transactions = undefined; // a body that is no JSON is the import's to quarantine
    }
    for (const tx of Array.isArray(transactions) ? transactions : []) {
      const network = transactionNetwork((tx as { raw_tx?: unknown } | null)?.raw_tx);
      if (network) return { network, line: line.line };
    }
    if (++blocks >= BLOCKS_LOOKED_AT) return undefined;
  }
  return undefined;
}

/** Refuse to import a recording of another network than the store serves, naming both. */
export async function checkRecordingNetwork(path: string, network: Network): Promise<void> {
  const found = await recordingNetwork(path);
  if (found === undefined || found.network === network) return;
  throw new StoreNetworkError(
    `${path} holds ${found.network} transactions (line ${found.line}), and this store serves ${network}: ` +
      `import it into a store of its own for ${found.network} (STACKHOOKS_NETWORK=${found.network} ` +
      'and another data folder or schema)',
  );
}
