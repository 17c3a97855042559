// The Postgres bench's webhook receiver, run as its own process (bench/postgres.ts starts it): plain
// node:http on 127.0.0.1, keep-alive, a 200 with an empty body once a request's body has arrived.
// It counts arrivals and answers the parent over IPC; times are epoch milliseconds with sub-ms
// precision (`performance.timeOrigin + performance.now()`), comparable across local processes.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the parent asks the receiver. */
export type ReceiverRequest = { kind: 'reset' } | { kind: 'until'; count: number } | { kind: 'stats' };

/** What the receiver answers: a count reached, or the current tally. */
export type ReceiverReply =
  | { kind: 'ready'; port: number }
  | { kind: 'reset' }
  | { kind: 'reached'; at: number; firstAt: number; arrivals: number }
  | { kind: 'stats'; arrivals: number; firstAt: number };

const now = () => performance.timeOrigin + performance.now();

let arrivals = 0;
let firstAt = 0;
let waiting: { count: number } | undefined;
let reachedAt = 0;

const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    const at = now();
    arrivals++;
    if (arrivals === 1) firstAt = at;
    res.writeHead(200, { 'content-length': '0' });
    res.end();
    if (waiting && arrivals >= waiting.count) {
      reachedAt = at;
      waiting = undefined;
      reply({ kind: 'reached', at: reachedAt, firstAt, arrivals });
    }
  });
});
// Keep connections open between requests; the senders' agents decide when to let them go.
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  reply({ kind: 'ready', port: (server.address() as AddressInfo).port });
});

process.on('message', (message: ReceiverRequest) => {
  if (message.kind === 'reset') {
    arrivals = 0;
    firstAt = 0;
    waiting = undefined;
    reply({ kind: 'reset' });
  } else if (message.kind === 'until') {
    if (arrivals >= message.count) reply({ kind: 'reached', at: now(), firstAt, arrivals });
    else waiting = { count: message.count };
  } else {
    reply({ kind: 'stats', arrivals, firstAt });
  }
});
process.on('disconnect', () => process.exit(0));

function reply(message: ReceiverReply): void {
  process.send?.(message);
}
