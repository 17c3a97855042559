import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** One request the receiver got. */
export type Received = { path: string; headers: IncomingHttpHeaders; body: string; at: number };

/**
 * How to answer one request: a status with headers, after a delay or once `after` resolves; never
 * (`hang`); a 200 whose body trickles a byte every 50 ms and never ends (`drip`); or a dropped
 * connection after `afterMs` (`reset`).
 */
export type Reply =
  | { status: number; headers?: Record<string, string>; delayMs?: number; after?: Promise<unknown> }
  | 'hang'
  | 'drip'
  | { reset: true; afterMs?: number };

/** A local webhook receiver whose answers a test decides, recording every request. */
export type TestReceiver = {
  url: (path?: string) => string;
  received: Received[];
  /** Decide the answer to each request (by default 200). */
  reply: (decide: (request: Received, index: number) => Reply) => void;
  /** Resolve once at least `count` requests arrived (or reject after `timeoutMs`). */
  waitFor: (count: number, timeoutMs?: number) => Promise<void>;
  close: () => Promise<void>;
};

/** Start a receiver on 127.0.0.1 and a free port. */
export async function startTestReceiver(): Promise<TestReceiver> {
  const received: Received[] = [];
  const sockets = new Set<Socket>();
  const hanging = new Set<ServerResponse>();
  let decide: (request: Received, index: number) => Reply = () => ({ status: 200 });
  const waiters: { count: number; resolve: () => void }[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const request = {
        path: req.url ?? '/',
        headers: req.headers,
        body: Buffer.concat(chunks).toString(),
        at: Date.now(),
      };
      received.push(request);
      for (const waiter of waiters.filter((w) => received.length >= w.count)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
      const reply = decide(request, received.length - 1);
      if (reply === 'hang') {
        hanging.add(res);
        return;
      }
      if (reply === 'drip') {
        res.writeHead(200, { 'content-type': 'text/plain' });
        const drip = setInterval(() => (res.destroyed ? clearInterval(drip) : res.write('.')), 50);
        res.on('close', () => clearInterval(drip));
        return;
      }
      if ('reset' in reply) {
        setTimeout(() => req.socket.destroy(), reply.afterMs ?? 0);
        return;
      }
      const answer = () => {
        if (res.destroyed) return;
        res.writeHead(reply.status, reply.headers);
        res.end();
      };
      const delayed = () => setTimeout(answer, reply.delayMs ?? 0);
      if (reply.after) void reply.after.then(delayed);
      else delayed();
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path = '/hook') => `http://127.0.0.1:${port}${path}`,
    received,
    reply: (next) => {
      decide = next;
    },
    waitFor: (count, timeoutMs = 20_000) =>
      new Promise<void>((resolve, reject) => {
        if (received.length >= count) return resolve();
        const timer = setTimeout(
          () => reject(new Error(`receiver got ${received.length} of ${count} requests`)),
          timeoutMs,
        );
        waiters.push({ count, resolve: () => (clearTimeout(timer), resolve()) });
      }),
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
