import { ConfigError, readServerConfig, type ServerConfig, type ServerFlags } from '../server/config.js';
import { startFailureLine } from '../server/start-failure.js';
import { startServer } from '../server/start-server.js';
import { boundHeapGrowth } from './heap-growth.js';

/**
 * `stackhooks serve` (and `npm start`): run what the role asks until SIGTERM or SIGINT, then stop
 * cleanly (requests in flight finish, every write reaches disk) and exit 0. A start that fails
 * prints one line naming the setting to fix (`verbose` adds the stack) and exits 1.
 */
export async function runServeCommand(flags: ServerFlags, verbose: boolean): Promise<void> {
  let config: ServerConfig | undefined;
  let running: Awaited<ReturnType<typeof startServer>>;
  boundHeapGrowth(process.execArgv, process.env.NODE_OPTIONS);
  try {
    config = readServerConfig(process.env, flags);
    running = await startServer(config);
  } catch (err) {
    // A bad value typed on the command line is a usage error, which the command line reports.
    if (err instanceof ConfigError && err.onCommandLine) throw err;
    console.error(startFailureLine(err, config));
    if (verbose) console.error(err);
    process.exit(1);
  }
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    running.stop(signal).then(
      () => process.exit(0),
      (err: unknown) => {
        console.error(err);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}
