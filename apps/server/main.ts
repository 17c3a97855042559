import { DatabaseStartError } from '../../adapters/store-postgres/index.js';
import { ConfigError, readServerConfig } from './config.js';
import { StoreNetworkError } from './store-network.js';
import { startServer } from './start-server.js';

/** `npm start`: run the API on the embedded default until SIGTERM or SIGINT. */
async function main(): Promise<void> {
  const config = readServerConfig(process.env, process.argv.slice(2));
  const running = await startServer(config);
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

main().catch((err: unknown) => {
  if (err instanceof DatabaseStartError) {
    const hint = err.waited ? ' (STACKHOOKS_DATABASE_WAIT sets how long to wait)' : '';
    console.error(`stackhooks: ${err.message}${hint}`);
  } else if (err instanceof ConfigError || err instanceof StoreNetworkError) {
    console.error(`stackhooks: ${err.message}`);
  } else console.error(err);
  process.exit(1);
});
