#!/usr/bin/env node
import { CommanderError } from 'commander';
import { ConfigError } from '../server/config.js';
import { buildProgram, LONG_RUNNING_COMMANDS } from './program.js';

/** Exit code of a usage error: an unknown command or option, or a bad value on the command line. */
const USAGE_ERROR = 2;

/** The `stackhooks` command line. */
async function main(argv: string[]): Promise<void> {
  const program = buildProgram();
  let keepsRunning = false;
  program.hook('preAction', (_program, command) => {
    keepsRunning = LONG_RUNNING_COMMANDS.has(command.name());
  });
  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (err) {
    process.exit(exitCodeOf(err));
  }
  if (!keepsRunning) process.exit(0);
}

/** Print what went wrong in one line (commander has printed its own) and say how to exit. */
function exitCodeOf(err: unknown): number {
  // Help and --version end in a CommanderError with exit code 0; every other one is a usage error.
  if (err instanceof CommanderError) return err.exitCode === 0 ? 0 : USAGE_ERROR;
  console.error(`stackhooks: ${err instanceof Error ? err.message : String(err)}`);
  // A bad value typed on the command line is a usage error; a bad variable or a failure on the way is 1.
  return err instanceof ConfigError && err.onCommandLine ? USAGE_ERROR : 1;
}

void main(process.argv.slice(2));
