import { rm } from 'node:fs/promises';
import { makeTempDir } from './temp-dir.js';
import { ChainhooksClient } from '@hirosystems/chainhooks-client';
import { readServerConfig, type ServerConfig } from '../../apps/server/config.js';
import { startServer, type RunningServer } from '../../apps/server/start-server.js';
import { silentLogger } from '../../adapters/system/index.js';
import type { Logger } from '../../core/ports/logger.js';

/** A key long enough for STACKHOOKS_API_KEY; tests use it as owner `default`. */
export const TEST_API_KEY = 'test-key-0123456789abcdef';

/** A server started in this process on a free port with its own data folder. */
export type TestServer = {
  server: RunningServer;
  baseUrl: string;
  /** Where a node would post: the observer endpoint. */
  observerUrl: string;
  dataDir: string;
  client: ChainhooksClient;
  /** A client for another key (and so, when issued for another owner, another owner). */
  clientFor(apiKey: string): ChainhooksClient;
  stop(): Promise<void>;
};

/** Start the real server (HTTP, lowdb, keys) on 127.0.0.1 with a free port, in a new data folder unless `env` names one. */
export async function startTestServer(
  env: Record<string, string> = {},
  logger: Logger = silentLogger,
): Promise<TestServer> {
  // A folder the caller names is the caller's to remove; a new one is removed at stop.
  const given = env.STACKHOOKS_DATA_DIR;
  const dataDir = given ?? (await makeTempDir());
  const config: ServerConfig = readServerConfig({
    STACKHOOKS_PORT: '0',
    STACKHOOKS_OBSERVER_PORT: '0',
    STACKHOOKS_METRICS_PORT: '0',
    // Test receivers listen on loopback.
    STACKHOOKS_ALLOW_PRIVATE_TARGETS: 'true',
    STACKHOOKS_HOST: '127.0.0.1',
    STACKHOOKS_DATA_DIR: dataDir,
    STACKHOOKS_API_KEY: TEST_API_KEY,
    ...env,
  });
  const server = await startServer(config, logger);
  const baseUrl = `http://127.0.0.1:${server.port}`;
  const clientFor = (apiKey: string) => new ChainhooksClient({ baseUrl, apiKey });
  return {
    server,
    baseUrl,
    observerUrl: `http://127.0.0.1:${server.observerPort}`,
    dataDir,
    client: clientFor(TEST_API_KEY),
    clientFor,
    async stop() {
      await server.stop('test');
      if (given === undefined) await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Resolve once the server has processed every entry its observer stored. */
export async function untilIngested(t: TestServer): Promise<void> {
  const { eventLog, ingest } = t.server.stackhooks;
  for (;;) {
    await ingest.idle();
    if ((await eventLog.processedId()) >= eventLog.lastId()) return;
    await new Promise((r) => setTimeout(r, 10));
  }
}

type LogLevel = 'debug' | 'info' | 'warn' | 'error';

/** A logger that keeps what it is told, for tests that check what was logged. */
export class RecordingLogger implements Logger {
  readonly lines: { level: LogLevel; message: string; fields: Record<string, unknown> }[] = [];

  /** Keep a debug line. */
  debug(message: string, fields: Record<string, unknown> = {}): void {
    this.lines.push({ level: 'debug', message, fields });
  }

  /** Keep an info line. */
  info(message: string, fields: Record<string, unknown> = {}): void {
    this.lines.push({ level: 'info', message, fields });
  }

  /** Keep a warn line. */
  warn(message: string, fields: Record<string, unknown> = {}): void {
    this.lines.push({ level: 'warn', message, fields });
  }

  /** Keep an error line. */
  error(message: string, fields: Record<string, unknown> = {}): void {
    this.lines.push({ level: 'error', message, fields });
  }

  /** The error lines. */
  errors() {
    return this.lines.filter((l) => l.level === 'error');
  }
}
