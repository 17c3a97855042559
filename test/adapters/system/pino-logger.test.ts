import { expect } from 'chai';
import { PinoLogger } from '../../../adapters/system/index.js';

function capture(level?: 'debug' | 'info' | 'warn' | 'error' | 'silent') {
  const lines: string[] = [];
  const logger = new PinoLogger({ level, sink: (line) => lines.push(line) });
  return { logger, lines, parsed: () => lines.map((l) => JSON.parse(l) as Record<string, unknown>) };
}

describe('PinoLogger', () => {
  it('writes one JSON object a line with the level by name, an ISO time, the fields and msg', () => {
    const { logger, parsed } = capture();
    logger.info('block processed', { height: 7, hash: '0xab' });
    const [line] = parsed();
    expect(line).to.include({ level: 'info', msg: 'block processed', height: 7, hash: '0xab' });
    expect(line.time).to.match(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(line.pid).to.equal(process.pid);
  });

  it('drops debug lines at the default level and writes them at level debug', () => {
    const quiet = capture();
    quiet.logger.debug('attempt', { n: 1 });
    expect(quiet.lines).to.deep.equal([]);
    const verbose = capture('debug');
    verbose.logger.debug('attempt', { n: 1 });
    expect(verbose.parsed()[0]).to.include({ level: 'debug', msg: 'attempt' });
  });

  it('writes only warn and error at level warn, and nothing when silent', () => {
    const warn = capture('warn');
    warn.logger.info('i');
    warn.logger.warn('w');
    warn.logger.error('e');
    expect(warn.parsed().map((l) => l.msg)).to.deep.equal(['w', 'e']);
    const silent = capture('silent');
    silent.logger.error('e');
    expect(silent.lines).to.deep.equal([]);
  });

  it('censors secret fields at any depth before a line is written', () => {
    const { logger, lines } = capture();
    logger.warn('odd request', {
      headers: { authorization: 'Bearer tok-123', 'x-api-key': 'key-456' },
      consumer_secret: 'sec-789',
      nested: { deeper: [{ password: 'pw-000' }] },
      error: 'connect ECONNREFUSED postgres://app:pg-pass@db:5432/x',
    });
    const text = lines.join('\n');
    for (const secret of ['tok-123', 'key-456', 'sec-789', 'pw-000', 'pg-pass'])
      expect(text).not.to.include(secret);
    expect(text).to.include('postgres://[redacted]@db:5432/x');
  });

  it('writes lines for a person when pretty', () => {
    const lines: string[] = [];
    const logger = new PinoLogger({ pretty: true, sink: (line) => lines.push(line) });
    logger.warn('attempt failed', { hook: 'h-1', status: 500, error: 'bad gateway' });
    expect(lines[0]).to.match(
      /^\d\d:\d\d:\d\d\.\d{3} WARN {2}attempt failed hook=h-1 status=500 error="bad gateway"$/,
    );
  });
});
