import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'chai';
import { ProgressLine } from '../../../apps/cli/progress-line.js';
import { ReplayError, runReplay } from '../../../apps/cli/replay-command.js';
import { ChainBuilder } from '../../support/block-builder.js';
import { freePort } from '../../support/server-process.js';
import { makeTempDir } from '../../support/temp-dir.js';
import { startTestReceiver, type TestReceiver } from '../../support/test-receiver.js';

/** A ProgressLine writing into a list, as to a file (no terminal redraws). */
function recordedProgress(): { progress: ProgressLine; lines: string[] } {
  const lines: string[] = [];
  const stream = {
    isTTY: false,
    write: (text: string) => lines.push(text.trim()),
  } as unknown as NodeJS.WriteStream;
  return { progress: new ProgressLine(stream), lines };
}

async function replayError(run: Promise<unknown>): Promise<ReplayError> {
  const error = await run.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(error).to.be.instanceOf(ReplayError);
  return error as ReplayError;
}

describe('runReplay', function () {
  this.timeout(30_000);
  let dir: string;
  let file: string;
  let receiver: TestReceiver | undefined;

  beforeEach(async () => {
    dir = await makeTempDir();
    file = join(dir, 'chain.tsv');
    const chain = new ChainBuilder();
    const lines = [1, 2, 3].map(
      (i) => `${i}\t2024-01-01 00:00:00+00\t/new_block\t${JSON.stringify(chain.next())}`,
    );
    await writeFile(file, lines.join('\n') + '\n');
  });
  afterEach(async () => {
    await receiver?.close();
    receiver = undefined;
    await rm(dir, { recursive: true, force: true });
  });

  it('posts every line in order to the observer', async () => {
    receiver = await startTestReceiver();
    const summary = await runReplay(file, { to: receiver.url(''), rate: 0 });
    expect(summary).to.include({ posted: 3, retries: 0 });
    expect(receiver.received.map((r) => r.path)).to.deep.equal(['/new_block', '/new_block', '/new_block']);
  });

  it('gives up on a closed port after its retry time, naming the URL and why', async () => {
    const url = `http://127.0.0.1:${await freePort()}`;
    const error = await replayError(
      runReplay(file, { to: url, rate: 0, retryFor: 1_000, maxRetryDelayMs: 200 }),
    );
    expect(error.message).to.match(
      new RegExp(
        `^cannot post to ${url}/new_block: connection refused \\(tried for \\d+ s\\); stopped at line 1 after 0 posts$`,
      ),
    );
  });

  it('stops at the first 4xx without posting it again', async () => {
    receiver = await startTestReceiver();
    receiver.reply((_request, index) => (index === 1 ? { status: 404 } : { status: 200 }));
    const error = await replayError(runReplay(file, { to: receiver.url(''), rate: 0, retryFor: 10_000 }));
    expect(error.message).to.equal(
      `${receiver.url('')}/new_block refused a post: 404 Not Found; stopped at line 2 after 1 post`,
    );
    expect(receiver.received).to.have.length(2);
  });

  it('posts again after a 5xx and goes on once the observer takes it', async () => {
    receiver = await startTestReceiver();
    receiver.reply((_request, index) => (index < 2 ? { status: 503 } : { status: 200 }));
    const summary = await runReplay(file, { to: receiver.url(''), rate: 0, maxRetryDelayMs: 50 });
    expect(summary).to.include({ posted: 3, retries: 2 });
  });

  it('redraws its progress while a post waits for an answer', async () => {
    receiver = await startTestReceiver();
    receiver.reply(() => 'hang');
    const { progress, lines } = recordedProgress();
    await replayError(
      runReplay(file, { to: receiver.url(''), rate: 0, progress, retryFor: 1, requestTimeoutMs: 2_500 }),
    );
    // The only post hangs for 2.5 s: every line drawn meanwhile came from the once-a-second redraw.
    expect(lines.filter((line) => line.startsWith('replay: 0 posts'))).to.have.length.above(0);
  });
});
