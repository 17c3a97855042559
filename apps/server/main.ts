import { readServerConfig, type ServerConfig } from './config.js';
import { startFailureLine } from './start-failure.js';
import { startServer } from './start-server.js';

const args = process.argv.slice(2);
/** `--verbose`, STACKHOOKS_VERBOSE=true or STACKHOOKS_LOG_LEVEL=debug: a failed start prints its stack after the line. */
const verbose =
  args.includes('--verbose') ||
  process.env.STACKHOOKS_VERBOSE === 'true' ||
  process.env.STACKHOOKS_LOG_LEVEL === 'debug';
let config: ServerConfig | undefined;

/** `npm start`: run the API on the embedded default until SIGTERM or SIGINT. */
async function main(): Promise<void> {
  config = readServerConfig(
    process.env,
    args.filter((arg) => arg !== '--verbose'),
  );
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
  console.error(startFailureLine(err, config));
  if (verbose) console.error(err);
  process.exit(1);
});
