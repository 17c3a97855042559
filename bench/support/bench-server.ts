// The real server (startServer) as the delivery benches run it: in this process, on loopback, on
// the embedded stores of a data folder of its own, with error lines kept for the report.
import { randomBytes } from 'node:crypto';
import { readServerConfig } from '../../apps/server/config.js';
import { startServer, type RunningServer } from '../../apps/server/start-server.js';
import { PinoLogger } from '../../adapters/system/index.js';

/**
 * Start the server on `dataDir` with private targets allowed and `env` on top; every error line
 * is pushed to `errors` (the first `printed` also go to stderr).
 */
export function startBenchServer(options: {
  dataDir: string;
  env?: Record<string, string>;
  errors: string[];
  printed?: number;
}): Promise<RunningServer> {
  const { errors, printed = 10 } = options;
  const logger = new PinoLogger({
    sink: (line) => {
      if (!line.includes('"level":"error"')) return;
      if (errors.length < printed) process.stderr.write(`stackhooks: ${line}\n`);
      errors.push(line);
    },
  });
  // A clean environment, so a developer's STACKHOOKS_* variables (a database URL) stay out of it.
  const config = readServerConfig({
    STACKHOOKS_PORT: '0',
    STACKHOOKS_HOST: '127.0.0.1',
    STACKHOOKS_OBSERVER_PORT: '0',
    STACKHOOKS_OBSERVER_HOST: '127.0.0.1',
    STACKHOOKS_METRICS_PORT: 'off',
    STACKHOOKS_DATA_DIR: options.dataDir,
    STACKHOOKS_ALLOW_PRIVATE_TARGETS: 'true',
    // A key of our own, so the server does not print a generated one.
    STACKHOOKS_API_KEY: `bench-${randomBytes(16).toString('hex')}`,
    ...options.env,
  });
  return startServer(config, logger);
}
