// The delivery bench's stand-in for a stacks-node, run as its own process so that the time it sees
// the observer's 200 is not held up by the server's event loop: it POSTs `/new_block` bodies (one
// JSON a line in a file) one after another on a fixed schedule, as a node's events_observer does
// (it waits for each 200 before the next post), and reports when each 200 arrived (`monotonicMs`).
import { readFile } from 'node:fs/promises';
import { Agent, request } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { monotonicMs, serveBenchRequests, type ChildRequest } from './deliver-ipc.js';

/** One block posted: its height, when the POST started, when its response's status arrived, the status. */
export type BlockAck = { height: number; sentAt: number; ackAt: number; status: number };

const agent = new Agent({ keepAlive: true, maxSockets: 1 });

serveBenchRequests({}, handle);

function handle(req: ChildRequest): Promise<BlockAck[]> {
  if (req.kind !== 'post') throw new Error(`unknown request ${req.kind}`);
  return postBlocks(req.url as string, req.file as string, req.intervalMs as number);
}

async function postBlocks(url: string, file: string, intervalMs: number): Promise<BlockAck[]> {
  const bodies = (await readFile(file, 'utf8')).split('\n').filter((line) => line.length > 0);
  const acks: BlockAck[] = [];
  const start = monotonicMs() + 50;
  for (const [i, body] of bodies.entries()) {
    // A fixed schedule (not a sleep after each post), so a slow answer does not lower the rate.
    const wait = start + i * intervalMs - monotonicMs();
    if (wait > 0) await sleep(wait);
    const height = (JSON.parse(body) as { block_height: number }).block_height;
    const sentAt = monotonicMs();
    const { status, ackAt } = await post(url, body);
    acks.push({ height, sentAt, ackAt, status });
  }
  return acks;
}

function post(url: string, body: string): Promise<{ status: number; ackAt: number }> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        const ackAt = monotonicMs();
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, ackAt }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}
