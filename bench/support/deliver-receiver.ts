// The delivery bench's webhook receiver, run as its own process (bench/deliver.ts starts it): plain
// node:http on 127.0.0.1, keep-alive, a 200 with an empty body as soon as a request's body has
// arrived (or a set time after, to stand for a receiver that does its own work first). It counts arrivals and bytes; in recording mode it also notes, for each request, its
// path, the block height its body applies and its arrival time (`monotonicMs`).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { monotonicMs, serveBenchRequests, type ChildRequest } from './deliver-ipc.js';
import { heightOf } from './payload-height.js';

/** One recorded arrival: the hook's path, the first applied block's height, when it arrived. */
export type Arrival = { path: string; height: number; at: number };

/** What the receiver answers to `until`: when the `count`-th request arrived. */
export type Reached = { at: number; arrivals: number };

/** What the receiver tells the bench when it is up. */
export type ReceiverReady = { port: number };

type Waiter = { count: number; resolve: (reached: Reached) => void };

let arrivals = 0;
let bytes = 0;
let recording = false;
/** How long the receiver waits before it answers each request (a receiver doing its own work). */
let answerAfterMs = 0;
let records: Arrival[] = [];
let lastBody: Buffer | undefined;
let waiters: Waiter[] = [];
/** Arrival times since the reset: `times[n - 1]` is when the n-th request arrived. */
let times: number[] = [];

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const at = monotonicMs();
    const body = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
    arrivals++;
    bytes += body.length;
    lastBody = body;
    times.push(at);
    if (recording) records.push({ path: req.url ?? '/', height: heightOf(body), at });
    if (answerAfterMs > 0) {
      setTimeout(() => {
        res.writeHead(200, { 'content-length': '0' });
        res.end();
      }, answerAfterMs);
    } else {
      res.writeHead(200, { 'content-length': '0' });
      res.end();
    }
    if (waiters.length === 0) return;
    const done = waiters.filter((w) => arrivals >= w.count);
    waiters = waiters.filter((w) => arrivals < w.count);
    for (const waiter of done) waiter.resolve({ at: times[waiter.count - 1], arrivals });
  });
});
// Keep connections open between bursts; the senders' agents decide when to let them go.
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  serveBenchRequests({ port } satisfies ReceiverReady, handle);
});

function handle(request: ChildRequest): unknown {
  switch (request.kind) {
    case 'reset':
      arrivals = 0;
      bytes = 0;
      records = [];
      lastBody = undefined;
      times = [];
      recording = request.record === true;
      answerAfterMs = Number(request.answerAfterMs ?? 0);
      return null;
    case 'until':
      return until(request.count as number, request.timeoutMs as number);
    case 'stats':
      return { arrivals, bytes };
    case 'sample':
      return lastBody?.toString('utf8') ?? null;
    case 'records':
      return records;
    default:
      throw new Error(`unknown request ${request.kind}`);
  }
}

// Resolves with the arrival time of the `count`-th request since the reset.
function until(count: number, timeoutMs: number): Promise<Reached> {
  if (arrivals >= count) return Promise.resolve({ at: times[count - 1], arrivals });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      waiters = waiters.filter((w) => w !== waiter);
      reject(new Error(`the receiver got ${arrivals} of ${count} webhooks within ${timeoutMs} ms`));
    }, timeoutMs);
    const waiter: Waiter = {
      count,
      resolve: (reached) => {
        clearTimeout(timer);
        resolve(reached);
      },
    };
    waiters.push(waiter);
  });
}
