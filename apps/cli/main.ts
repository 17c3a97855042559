import { parseArgs } from 'node:util';
import { ConfigError, readServerConfig } from '../server/config.js';
import { runKeysCommand } from './keys-command.js';

const USAGE = `usage: stackhooks <command>

  serve [--port N] [--host H] [--data-dir D] [--network mainnet|testnet]
                              run the API (same as npm start)
  keys create --owner NAME    create an API key (shown once)
  keys list                   list keys (ids, owners, states; never the keys)
  keys revoke KEY_ID          revoke a key at once

Every command reads STACKHOOKS_DATA_DIR (default ./data); --data-dir overrides it.`;

/** The `stackhooks` command line. */
async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    console.log(USAGE);
    return command === undefined ? 1 : 0;
  }
  if (command === 'serve') {
    process.argv = [process.argv[0], process.argv[1], ...rest];
    await import('../server/main.js');
    return -1;
  }
  if (command === 'keys') return keys(rest);
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

main(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exit(code);
  },
  (err: unknown) => {
    console.error(`stackhooks: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  },
);
