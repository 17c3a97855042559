import { CommanderError } from 'commander';
import { expect } from 'chai';
import { buildProgram } from '../../../apps/cli/program.js';
import { ConfigError } from '../../../apps/server/config.js';
import { runCli } from '../../support/server-process.js';

/** Parse `args` as the command line would, with what it prints kept; resolves to what parsing threw. */
async function parse(args: string[]): Promise<{ error: unknown; out: string; err: string }> {
  let out = '';
  let err = '';
  const program = buildProgram({ writeOut: (text) => (out += text), writeErr: (text) => (err += text) });
  try {
    await program.parseAsync(args, { from: 'user' });
    return { error: undefined, out, err };
  } catch (error) {
    return { error, out, err };
  }
}

/** Every command, with what it needs so that one more option is the only thing wrong. */
const COMMANDS: { path: string[]; required: string[] }[] = [
  { path: [], required: [] },
  { path: ['keys'], required: [] },
  { path: ['serve'], required: [] },
  { path: ['migrate'], required: [] },
  { path: ['keys', 'create'], required: ['--owner', 'alice'] },
  { path: ['keys', 'list'], required: [] },
  { path: ['keys', 'revoke'], required: ['key_0123'] },
  { path: ['import'], required: ['chain.tsv'] },
  { path: ['example-chain'], required: ['demo.tsv'] },
  { path: ['replay'], required: ['demo.tsv', '--to', 'http://127.0.0.1:20455'] },
  { path: ['receive'], required: [] },
];

describe('the stackhooks command line', () => {
  for (const { path, required } of COMMANDS) {
    const name = path.join(' ');
    const title = name || 'the program itself';

    it(`prints usage, options and an example for ${title} --help`, async () => {
      const { error, out } = await parse([...path, '--help']);
      expect(error).to.be.instanceOf(CommanderError);
      expect((error as CommanderError).exitCode).to.equal(0);
      expect(out).to.include(`Usage: stackhooks ${name}`.trim());
      expect(out).to.include('Options:');
      expect(out).to.match(/Example:\n {2}\$ (\S+=\S+ )*stackhooks /);
    });

    it(`refuses an unknown option to ${title} in one line`, async () => {
      const { error, err } = await parse([...path, ...required, '--xyzzy']);
      expect(error).to.be.instanceOf(CommanderError);
      expect((error as CommanderError).exitCode).to.not.equal(0);
      expect(err).to.equal("stackhooks: unknown option '--xyzzy'\n");
    });
  }

  it('shows the defaults and the variable of the server settings in serve --help', async () => {
    const { out } = await parse(['serve', '--help']);
    expect(out).to.match(/--observer-port <port>[\s\S]*default: 20455,\s+env:\s+STACKHOOKS_OBSERVER_PORT/);
    expect(out).to.match(/--port <port>[\s\S]*default: 3000,\s+env:\s+STACKHOOKS_PORT/);
    expect(out).to.include('--node-rpc-url <url>');
  });

  it('suggests the option meant, on the same line', async () => {
    const { err } = await parse(['serve', '--obsever-port', '1']);
    expect(err).to.equal("stackhooks: unknown option '--obsever-port' (Did you mean --observer-port?)\n");
  });

  it('refuses a replay target that is not an http URL before reading anything', async () => {
    const { error, err } = await parse(['replay', 'missing.tsv', '--to', '127.0.0.1:20455']);
    expect(error).to.be.instanceOf(CommanderError);
    expect(err).to.match(
      /^stackhooks: option '--to <url>' argument '127\.0\.0\.1:20455' is invalid\. expected an http/,
    );
    expect(err.split('\n')).to.have.length(2); // one line and its newline
  });

  it('refuses a bad number of blocks, a bad receiver port and an unknown network', async () => {
    for (const args of [
      ['example-chain', 'demo.tsv', '--blocks', '0'],
      ['receive', '--port', '70000'],
      ['serve', '--network', 'moon'],
      ['replay', 'demo.tsv', '--to', 'http://127.0.0.1:20455', '--retry-for', 'soon'],
    ]) {
      const { error, err } = await parse(args);
      expect(error, args.join(' ')).to.be.instanceOf(CommanderError);
      expect(err, args.join(' ')).to.match(
        /^stackhooks: option '--[a-z-]+ <\w+>' argument '\w+' is invalid\.[^\n]*\n$/,
      );
    }
  });

  it('names the flag, not the variable, when a server setting given as a flag is wrong', async () => {
    const { error } = await parse(['serve', '--observer-port', 'abc']);
    expect(error).to.be.instanceOf(ConfigError);
    expect((error as Error).message).to.equal(
      '--observer-port must be an integer from 0 to 65535, got "abc"',
    );
  });

  it('exits 2 on a usage error and 0 on --version, printing the version', async function () {
    this.timeout(60_000);
    const bad = await runCli(['replay', 'demo.tsv', '--to', 'http://127.0.0.1:20455', '--rate', 'fast'], {});
    expect(bad.code).to.equal(2);
    expect(bad.out).to.equal(
      "stackhooks: option '--rate <n>' argument 'fast' is invalid. expected a number of at least 0\n",
    );
    const version = await runCli(['--version'], {});
    expect(version.code).to.equal(0);
    expect(version.out).to.match(/^\d+\.\d+\.\d+\n$/);
  });
});
