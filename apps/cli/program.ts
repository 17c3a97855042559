import { Command, InvalidArgumentError, Option } from 'commander';
import { DEFAULT_DELIVERED_BODY_RETENTION_MS } from '../server/delivery-defaults.js';
import { parseDuration } from '../server/delivery-loop.js';
import {
  ConfigError,
  NETWORKS,
  ROLES,
  SERVER_DEFAULTS,
  SERVER_FLAGS,
  readServerConfig,
  type ServerFlags,
} from '../server/config.js';
import { SERVER_VERSION } from '../server/version.js';
import {
  runExampleChainCommand,
  runImportCommand,
  runReplayCommand,
  runScanCommand,
} from './chain-commands.js';
import { runKeysCommand, type KeysAction } from './keys-command.js';
import { runReceiveCommand } from './receive-command.js';
import { runServeCommand } from './serve-command.js';

/** How long replay retries one post while the observer cannot be reached or answers 5xx, by default. */
const DEFAULT_REPLAY_RETRY = '30s';

/**
 * The `stackhooks` command line: every command, its options with their defaults, and its help.
 * Parsing is commander's; an unknown option or a bad value ends in one line on stderr (see main.ts).
 */
export function buildProgram(
  output: { writeOut?(text: string): void; writeErr?(text: string): void } = {},
): Command {
  const program = new Command('stackhooks')
    .description('Self-hostable webhooks for the Stacks blockchain, compatible with the Chainhooks API.')
    .version(SERVER_VERSION, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help')
    .showSuggestionAfterError()
    .exitOverride()
    .configureOutput({ ...output, outputError: (text, write) => write(`stackhooks: ${oneLine(text)}\n`) });
  program.addHelpText(
    'after',
    `${example('stackhooks serve --port 3000')}\n\nEach command has its own help: stackhooks <command> --help`,
  );

  program
    .command('serve')
    .description('run the service: the API, the event observer and webhook delivery (npm start runs this)')
    .addOption(
      serverOption(
        'role',
        '--role <role>',
        'what this process runs; api, ingest and worker need STACKHOOKS_DATABASE_URL',
      ).choices(ROLES),
    )
    .addOption(serverOption('port', '--port <port>', "the API's TCP port"))
    .addOption(serverOption('host', '--host <host>', "the API's bind address"))
    .addOption(dataDirOption())
    .addOption(serverOption('network', '--network <network>', 'the one network served').choices(NETWORKS))
    .addOption(serverOption('observerPort', '--observer-port <port>', 'where a stacks-node posts its events'))
    .addOption(serverOption('observerHost', '--observer-host <host>', "the observer's bind address"))
    .addOption(
      serverOption(
        'nodeRpcUrl',
        '--node-rpc-url <url>',
        "a stacks-node's RPC, for ABIs of contracts never deployed in view",
      ),
    )
    .addOption(
      serverOption(
        'deliveredBodyRetention',
        '--delivered-body-retention <duration>',
        `how long a delivered payload keeps its body for a redelivery (e.g. 10m; default ${DEFAULT_DELIVERED_BODY_RETENTION_MS / 3_600_000}h)`,
      ),
    )
    .addHelpText(
      'after',
      example('STACKHOOKS_ALLOW_PRIVATE_TARGETS=true stackhooks serve --port 3000 --observer-port 20455'),
    )
    .option(
      '--verbose',
      'a start that fails prints its stack after its one line (also STACKHOOKS_VERBOSE=true)',
    )
    .action(async (options: { verbose?: boolean }, command: Command) => {
      const verbose =
        options.verbose === true ||
        process.env.STACKHOOKS_VERBOSE === 'true' ||
        process.env.STACKHOOKS_LOG_LEVEL === 'debug';
      await runServeCommand(givenServerFlags(command), verbose);
    });

  program
    .command('migrate')
    .description('apply pending SQL migrations to STACKHOOKS_DATABASE_URL (serve also does this at start)')
    .addHelpText(
      'after',
      example('STACKHOOKS_DATABASE_URL=postgres://stackhooks@db:5432/stackhooks stackhooks migrate'),
    )
    .action(async () => {
      const url = readServerConfig(process.env).databaseUrl;
      if (!url) throw new ConfigError('migrate needs STACKHOOKS_DATABASE_URL (postgres://…)');
      const { runMigrateCommand } = await import('./migrate-command.js');
      console.log(await runMigrateCommand(url));
    });

  const keys = program
    .command('keys')
    .description('create, list and revoke API keys (whether or not the server runs)')
    .addHelpText('after', example('stackhooks keys create --owner alice'));
  const keysAction =
    (action: (args: string[], options: Record<string, string>) => KeysAction) =>
    async (...args: unknown[]) => {
      const command = args.at(-1) as Command;
      const { dataDir, databaseUrl } = readServerConfig(process.env, givenServerFlags(command));
      console.log(await runKeysCommand({ dataDir, databaseUrl }, action(command.args, command.opts())));
    };
  keys
    .command('create')
    .description('create a key for an owner; it is shown this once, only its hash is kept')
    .requiredOption('--owner <name>', 'the owner the key belongs to')
    .addOption(dataDirOption())
    .addHelpText('after', example('stackhooks keys create --owner alice'))
    .action(keysAction((_args, options) => ({ kind: 'create', owner: options.owner })));
  keys
    .command('list')
    .description('list the keys: ids, owners, states (never the keys)')
    .addOption(dataDirOption())
    .addHelpText('after', example('stackhooks keys list'))
    .action(keysAction(() => ({ kind: 'list' })));
  keys
    .command('revoke')
    .description('revoke a key at once')
    .argument('<key-id>', 'the id keys list shows (key_…)')
    .addOption(dataDirOption())
    .addHelpText('after', example('stackhooks keys revoke key_0123456789abcdef'))
    .action(keysAction(([id]) => ({ kind: 'revoke', id })));

  program
    .command('import')
    .description(
      'read an event-replay TSV into the block archive and canonical chain; resumable; delivers nothing',
    )
    .argument('<file>', "the TSV (.tsv or .tsv.gz): traffic recorded from a node, or Hiro's archive")
    .addOption(dataDirOption())
    .addOption(serverOption('network', '--network <network>', 'the network of the chain').choices(NETWORKS))
    .addOption(
      serverOption(
        'nodeRpcUrl',
        '--node-rpc-url <url>',
        "a stacks-node's RPC, to name calls to contracts whose deploy is not in the file",
      ),
    )
    .addHelpText('after', example('stackhooks import mainnet.tsv.gz --node-rpc-url http://127.0.0.1:20443'))
    .action(async (file: string, _options, command: Command) => {
      await runImportCommand(file, readServerConfig(process.env, givenServerFlags(command)));
    });

  program
    .command('predicates')
    .description("Chainhook 1.x predicate files against the archive (as 1.x's chainhook predicates)")
    .addHelpText('after', example('stackhooks predicates scan print-events.json > matches.jsonl'))
    .command('scan')
    .description(
      "evaluate a 1.x predicate file over the archive: each match's 1.x payload as a JSON line on stdout, progress on stderr",
    )
    .argument('<file>', 'the predicate file (JSON, as 1.x read it)')
    .option(
      '--start-block <height>',
      "the first height (default: the predicate's start_block, else 0)",
      integerArgument(0, Number.MAX_SAFE_INTEGER),
    )
    .option(
      '--end-block <height>',
      "the last height (default: the predicate's end_block, else the tip)",
      integerArgument(0, Number.MAX_SAFE_INTEGER),
    )
    .option('--then-that', "perform the predicate's then_that (http_post or file_append) instead of printing")
    .addOption(dataDirOption())
    .addOption(serverOption('network', '--network <network>', 'the network of the archive').choices(NETWORKS))
    .addHelpText(
      'after',
      example('stackhooks predicates scan transfers.json --start-block 150000 > out.jsonl'),
    )
    .action(
      async (
        file: string,
        options: { startBlock?: number; endBlock?: number; thenThat?: boolean },
        command: Command,
      ) => {
        await runScanCommand(file, readServerConfig(process.env, givenServerFlags(command)), options);
      },
    );

  program
    .command('example-chain')
    .description('write a small demo chain (real signed STX transfers) as an event-replay TSV')
    .argument('<file>', 'the TSV to write')
    .option('--blocks <n>', 'blocks to write (1 to 100000)', integerArgument(1, 100_000), 10)
    .addOption(serverOption('network', '--network <network>', 'the network of the chain').choices(NETWORKS))
    .addHelpText('after', example('stackhooks example-chain demo.tsv --blocks 5'))
    .action(async (file: string, options: { blocks: number }, command: Command) => {
      const { network } = readServerConfig(process.env, givenServerFlags(command));
      await runExampleChainCommand(file, options.blocks, network);
    });

  program
    .command('replay')
    .description(
      'POST an event-replay TSV to an event observer as a node would: in order, each post until it is taken',
    )
    .argument('<file>', 'the TSV (.tsv or .tsv.gz)')
    .requiredOption('--to <url>', 'the event observer (http://host:port)', httpUrlArgument)
    .option('--rate <n>', 'posts a second at most (0: as fast as the observer answers)', numberArgument(0), 0)
    .addOption(
      new Option(
        '--retry-for <duration>',
        'how long one post is retried while the observer cannot be reached or answers 5xx (500ms, 30s, 5m)',
      )
        .argParser(durationArgument)
        .default(parseDuration(DEFAULT_REPLAY_RETRY), DEFAULT_REPLAY_RETRY),
    )
    .addHelpText('after', example('stackhooks replay demo.tsv --to http://127.0.0.1:20455 --rate 50'))
    .action(async (file: string, options: { to: string; rate: number; retryFor: number }) => {
      await runReplayCommand(file, options);
    });

  program
    .command('receive')
    .description('print the webhooks POSTed to http://HOST:PORT/, checking their signatures with --secret')
    .option('--port <port>', 'the port to listen on', integerArgument(0, 65535), 4000)
    .option('--host <host>', 'the address to bind', '127.0.0.1')
    .addOption(
      new Option('--secret <secret>', "your consumer secret, whsec_… (or the API's hex form)").env(
        'STACKHOOKS_SECRET',
      ),
    )
    .addHelpText('after', example('stackhooks receive --port 4000 --secret whsec_…'))
    .action(async (options: { port: number; host: string; secret?: string }) => {
      await runReceiveCommand(options);
    });

  return program;
}

/** The commands whose process keeps running (until SIGINT or SIGTERM) after their action returns. */
export const LONG_RUNNING_COMMANDS: ReadonlySet<string> = new Set(['serve', 'receive']);

function dataDirOption(): Option {
  return serverOption('dataDir', '--data-dir <dir>', 'folder of the embedded stores');
}

/** An option backed by a STACKHOOKS_* variable, with the service's default shown in help. */
function serverOption(key: keyof ServerFlags, flags: string, description: string): Option {
  const option = new Option(flags, description).env(SERVER_FLAGS[key].env);
  const fallback = (SERVER_DEFAULTS as Record<string, unknown>)[key];
  return fallback === undefined ? option : option.default(fallback);
}

/**
 * The settings given on the command line itself. Defaults and variables are left to
 * readServerConfig, which reads them the same way for the server, the CLI and the tests.
 */
function givenServerFlags(command: Command): ServerFlags {
  const flags: ServerFlags = {};
  for (const key of Object.keys(SERVER_FLAGS) as (keyof ServerFlags)[]) {
    if (command.getOptionValueSource(key) === 'cli') flags[key] = String(command.getOptionValue(key));
  }
  return flags;
}

function integerArgument(min: number, max: number): (raw: string) => number {
  return (raw) => {
    const value = Number(raw);
    if (raw.trim() === '' || !Number.isInteger(value) || value < min || value > max)
      throw new InvalidArgumentError(`expected an integer from ${min} to ${max}`);
    return value;
  };
}

function numberArgument(min: number): (raw: string) => number {
  return (raw) => {
    const value = Number(raw);
    if (raw.trim() === '' || !Number.isFinite(value) || value < min)
      throw new InvalidArgumentError(`expected a number of at least ${min}`);
    return value;
  };
}

function durationArgument(raw: string): number {
  const value = parseDuration(raw);
  if (value === undefined) throw new InvalidArgumentError('expected a duration like 500ms, 30s or 5m');
  return value;
}

function httpUrlArgument(raw: string): string {
  let url: URL | undefined;
  try {
    url = new URL(raw);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.hostname === '')
    throw new InvalidArgumentError('expected an http:// or https:// URL like http://127.0.0.1:20455');
  return raw;
}

function example(line: string): string {
  return `\nExample:\n  $ ${line}`;
}

/** Commander's message (and its "Did you mean" line) as one line, without its "error: " prefix. */
function oneLine(text: string): string {
  return text
    .replace(/^error: /, '')
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .join(' ');
}
