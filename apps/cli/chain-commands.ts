import type { Network } from '../../core/hooks/definition.js';
import { nodeRpcOptions, type ServerConfig } from '../server/config.js';
import { exampleAccounts, writeExampleChain } from './example-chain.js';
import { chainLines, runImport } from './import-command.js';
import { counted, ProgressLine } from './progress-line.js';
import { runReplay } from './replay-command.js';
import { OutputClosed, runScan, scanLines, type ScanOptions } from './scan-command.js';

/** `stackhooks import FILE`: backfill the archive, then say what it read, archived and could not name. */
export async function runImportCommand(file: string, config: ServerConfig): Promise<void> {
  const summary = await runImport(file, {
    dataDir: config.dataDir,
    databaseUrl: config.databaseUrl,
    network: config.network,
    nodeRpc: nodeRpcOptions(config),
    progress: new ProgressLine(),
  });
  const resumed = summary.resumedFromLine > 0 ? ` (resumed after line ${summary.resumedFromLine})` : '';
  console.log(
    `read ${counted(summary.blocks, 'block')}, archived ${counted(summary.archived, 'new one')} ` +
      `in ${summary.seconds.toFixed(1)} s${resumed}`,
  );
  if (summary.unnamedCalls > 0) {
    console.log(
      `${counted(summary.unnamedCalls, 'contract call')} to ${counted(summary.unnamedContracts, 'contract')} ` +
        `without a known ABI ${summary.unnamedCalls === 1 ? 'is' : 'are'} archived with unnamed arguments` +
        (config.nodeRpcUrl ? '' : ' (set STACKHOOKS_NODE_RPC_URL or --node-rpc-url to name them)'),
    );
  }
  for (const line of chainLines(summary)) console.log(line);
}

/** `stackhooks example-chain FILE`: write the demo chain and say between which accounts it moves STX. */
export async function runExampleChainCommand(file: string, blocks: number, network: Network): Promise<void> {
  await writeExampleChain(file, blocks, network);
  const { sender, recipient } = exampleAccounts(network);
  console.log(`wrote ${counted(blocks, 'block')} to ${file}: STX transfers from ${sender} to ${recipient}`);
}

/** `stackhooks replay FILE --to URL`: post the file to an observer, then say how it went. */
export async function runReplayCommand(
  file: string,
  options: { to: string; rate: number; retryFor: number },
): Promise<void> {
  const summary = await runReplay(file, { ...options, progress: new ProgressLine() });
  console.log(
    `posted ${counted(summary.posted, 'request')} in ${summary.seconds.toFixed(1)} s ` +
      `(${counted(summary.retries, 'retry', 'retries')})`,
  );
}

/** `stackhooks predicates scan FILE`: payloads (or the predicate's action) out, then what was scanned on stderr. */
export async function runScanCommand(
  file: string,
  config: ServerConfig,
  options: Pick<ScanOptions, 'startBlock' | 'endBlock' | 'thenThat'>,
): Promise<void> {
  let summary;
  try {
    summary = await runScan(file, config, { ...options, progress: new ProgressLine() });
  } catch (err) {
    // Its reader took what it wanted (`| head`): nothing went wrong.
    if (err instanceof OutputClosed) return;
    throw err;
  }
  for (const line of scanLines(summary)) console.error(line);
}
