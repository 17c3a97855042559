#!/usr/bin/env node
import { parseArgs } from 'node:util';
import { ConfigError, nodeRpcOptions, readServerConfig } from '../server/config.js';
import { SERVER_VERSION } from '../server/version.js';
import { exampleAccounts, writeExampleChain } from './example-chain.js';
import { chainLines, runImport } from './import-command.js';
import { runKeysCommand } from './keys-command.js';
import { ProgressLine } from './progress-line.js';
import { runReceiveCommand } from './receive-command.js';
import { runReplay } from './replay-command.js';

const USAGE = `usage: stackhooks <command>

  serve [--role all|api|ingest|worker] [--port N] [--host H] [--data-dir D] [--network mainnet|testnet]
        [--node-rpc-url URL]  run the service (npm start is serve --role all); the roles
                              api, ingest and worker need STACKHOOKS_DATABASE_URL
  migrate                     apply pending SQL migrations to STACKHOOKS_DATABASE_URL
                              (serve also does this at start)
  keys create --owner NAME    create an API key (shown once)
  keys list                   list keys (ids, owners, states; never the keys)
  keys revoke KEY_ID          revoke a key at once
  import FILE [--node-rpc-url URL]
                              read an event-replay TSV (.tsv or .tsv.gz) into the block
                              archive and canonical chain; resumable; delivers nothing
  example-chain FILE [--blocks N] [--network mainnet|testnet]
                              write a small demo chain (real signed STX transfers) as a TSV
  replay FILE --to URL [--rate N]
                              POST a TSV to an event observer as a node would
                              (URL like http://127.0.0.1:20455; N posts a second)
  receive [--port N] [--host H] [--secret S]
                              print the webhooks POSTed to http://H:N/ (default
                              127.0.0.1:4000), checking signatures with the hex secret S

Every command reads STACKHOOKS_DATA_DIR (default ./data); --data-dir overrides it.`;

/** The `stackhooks` command line. */
async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    console.log(USAGE);
    return command === undefined ? 1 : 0;
  }
  if (command === '--version' || command === '-V') {
    console.log(SERVER_VERSION);
    return 0;
  }
  if (command === 'serve') {
    process.argv = [process.argv[0], process.argv[1], ...rest];
    await import('../server/main.js');
    return -1;
  }
  if (command === 'keys') return keys(rest);
  if (command === 'import') return importFile(rest);
  if (command === 'migrate') return migrateDatabase();
  if (command === 'example-chain') return exampleChain(rest);
  if (command === 'replay') return replay(rest);
  if (command === 'receive') {
    await runReceiveCommand(rest);
    return -1; // keeps running until SIGINT or SIGTERM
  }
  console.error(`stackhooks: unknown command "${command}"\n\n${USAGE}`);
  return 1;
}

async function keys(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      owner: { type: 'string' },
      'data-dir': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const [sub, id] = positionals;
  if (values.help || sub === undefined) {
    console.log(USAGE);
    return values.help ? 0 : 1;
  }
  const dataDir = readServerConfig(
    process.env,
    values['data-dir'] ? ['--data-dir', values['data-dir']] : [],
  ).dataDir;
  if (sub === 'create') {
    if (!values.owner) throw new ConfigError('keys create needs --owner NAME');
    console.log(await runKeysCommand(dataDir, { kind: 'create', owner: values.owner }));
  } else if (sub === 'list') {
    console.log(await runKeysCommand(dataDir, { kind: 'list' }));
  } else if (sub === 'revoke') {
    if (!id) throw new ConfigError('keys revoke needs a KEY_ID (see keys list)');
    console.log(await runKeysCommand(dataDir, { kind: 'revoke', id }));
  } else {
    throw new ConfigError(`unknown keys command "${sub}"`);
  }
  return 0;
}

async function importFile(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      'data-dir': { type: 'string' },
      network: { type: 'string' },
      'node-rpc-url': { type: 'string' },
    },
  });
  if (positionals.length !== 1) throw new ConfigError('import needs exactly one FILE');
  const flags = [
    ...(values['data-dir'] ? ['--data-dir', values['data-dir']] : []),
    ...(values.network ? ['--network', values.network] : []),
    ...(values['node-rpc-url'] ? ['--node-rpc-url', values['node-rpc-url']] : []),
  ];
  const config = readServerConfig(process.env, flags);
  const summary = await runImport(positionals[0], {
    dataDir: config.dataDir,
    databaseUrl: config.databaseUrl,
    network: config.network,
    nodeRpc: nodeRpcOptions(config),
    progress: new ProgressLine(),
  });
  const resumed = summary.resumedFromLine > 0 ? ` (resumed after line ${summary.resumedFromLine})` : '';
  console.log(
    `read ${summary.blocks} blocks, archived ${summary.archived} new ones in ${summary.seconds.toFixed(1)} s${resumed}`,
  );
  if (summary.unnamedCalls > 0) {
    console.log(
      `${summary.unnamedCalls} contract calls to ${summary.unnamedContracts} contracts without a known ABI ` +
        `are archived with unnamed arguments` +
        (config.nodeRpcUrl ? '' : ' (set STACKHOOKS_NODE_RPC_URL or --node-rpc-url to name them)'),
    );
  }
  for (const line of chainLines(summary)) console.log(line);
  return 0;
}

async function migrateDatabase(): Promise<number> {
  const url = readServerConfig(process.env).databaseUrl;
  if (!url) throw new ConfigError('migrate needs STACKHOOKS_DATABASE_URL (postgres://…)');
  const { runMigrateCommand } = await import('./migrate-command.js');
  console.log(await runMigrateCommand(url));
  return 0;
}

async function exampleChain(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { blocks: { type: 'string' }, network: { type: 'string' } },
  });
  if (positionals.length !== 1) throw new ConfigError('example-chain needs exactly one FILE to write');
  const blocks = values.blocks === undefined ? 10 : Number(values.blocks);
  if (!Number.isInteger(blocks) || blocks < 1 || blocks > 100_000)
    throw new ConfigError('--blocks must be 1 to 100000');
  const network = readServerConfig(process.env, values.network ? ['--network', values.network] : []).network;
  await writeExampleChain(positionals[0], blocks, network);
  const { sender, recipient } = exampleAccounts(network);
  console.log(`wrote ${blocks} blocks to ${positionals[0]}: STX transfers from ${sender} to ${recipient}`);
  return 0;
}

async function replay(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { to: { type: 'string' }, rate: { type: 'string' } },
  });
  if (positionals.length !== 1) throw new ConfigError('replay needs exactly one FILE');
  if (!values.to)
    throw new ConfigError('replay needs --to URL (the event observer, e.g. http://127.0.0.1:20455)');
  const rate = values.rate === undefined ? 0 : Number(values.rate);
  if (!Number.isFinite(rate) || rate < 0) throw new ConfigError('--rate must be a number of posts a second');
  const summary = await runReplay(positionals[0], { to: values.to, rate, progress: new ProgressLine() });
  console.log(
    `posted ${summary.posted} requests in ${summary.seconds.toFixed(1)} s (${summary.retries} retries)`,
  );
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exit(code);
  },
  (err: unknown) => {
    console.error(`stackhooks: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  },
);
