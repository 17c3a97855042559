// The slow-receivers bench's webhook receivers, run as their own process (bench/slow-receivers.ts
// starts it): one healthy origin that answers every request 200 after 5 ms and notes each
// arrival (path, block height, `monotonicMs`), and any number of bad origins, one port each (so
// that no circuit shared by an origin can hide them), that hang, or answer 200 after a delay.
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { monotonicMs, serveBenchRequests, type ChildRequest } from './deliver-ipc.js';
import { heightOf } from './payload-height.js';
import type { Arrival } from './deliver-receiver.js';

/** How the bad origins answer: never, or 200 after `delayMs`. */
export type BadMode = { kind: 'hang' } | { kind: 'late'; delayMs: number };

/** What the receivers tell the bench when they are up. */
export type IsolationReceiversReady = { healthyPort: number };

/** What the bad origins saw: requests that arrived, and those answered. */
export type BadStats = { arrivals: number; answered: number };

const HEALTHY_DELAY_MS = 5;

let records: Arrival[] = [];
let badServers: Server[] = [];
const badSockets = new Set<Socket>();
let badStats: BadStats = { arrivals: 0, answered: 0 };

const healthy = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    records.push({ path: req.url ?? '/', height: heightOf(Buffer.concat(chunks)), at: monotonicMs() });
    setTimeout(() => res.writeHead(200, { 'content-length': '0' }).end(), HEALTHY_DELAY_MS);
  });
});
healthy.keepAliveTimeout = 60_000;
healthy.listen(0, '127.0.0.1', () => {
  const { port } = healthy.address() as AddressInfo;
  serveBenchRequests({ healthyPort: port } satisfies IsolationReceiversReady, handle);
});

async function handle(request: ChildRequest): Promise<unknown> {
  switch (request.kind) {
    case 'bad':
      await closeBad();
      return openBad(request.count as number, request.mode as BadMode);
    case 'reset':
      records = [];
      badStats = { arrivals: 0, answered: 0 };
      return null;
    case 'records':
      return records;
    case 'badStats':
      return badStats;
    case 'closeBad':
      await closeBad();
      return null;
    default:
      throw new Error(`unknown request ${request.kind}`);
  }
}

// `count` bad origins, each on its own port; returns the ports.
async function openBad(count: number, mode: BadMode): Promise<number[]> {
  const ports: number[] = [];
  for (let i = 0; i < count; i++) {
    const server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        badStats.arrivals++;
        if (mode.kind === 'hang') return;
        setTimeout(() => {
          if (res.destroyed) return;
          res.writeHead(200, { 'content-length': '0' }).end();
          badStats.answered++;
        }, mode.delayMs);
      });
    });
    server.keepAliveTimeout = 60_000;
    server.on('connection', (socket) => {
      badSockets.add(socket);
      socket.on('close', () => badSockets.delete(socket));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    ports.push((server.address() as AddressInfo).port);
    badServers.push(server);
  }
  return ports;
}

// Cut whatever the bad origins still hold, so the server under test stops without waiting on them.
async function closeBad(): Promise<void> {
  for (const socket of badSockets) socket.destroy();
  await Promise.all(badServers.map((server) => new Promise((resolve) => server.close(resolve))));
  badServers = [];
}
