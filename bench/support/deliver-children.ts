// Typed handles on the delivery bench's two child processes: the webhook receiver and the
// stand-in stacks-node.
import { fileURLToPath } from 'node:url';
import { startBenchChild, type BenchChild } from './deliver-ipc.js';
import type { BlockAck } from './deliver-node.js';
import type { Arrival, Reached, ReceiverReady } from './deliver-receiver.js';

const receiverScript = fileURLToPath(new URL('./deliver-receiver.ts', import.meta.url));
const nodeScript = fileURLToPath(new URL('./deliver-node.ts', import.meta.url));

/** The receiver process: where it listens and what it saw. */
export type Receiver = {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /**
   * Forget every arrival; with `record`, note path, height and time of each from now on; with
   * `answerAfterMs`, answer each request that long after its body arrived.
   */
  reset(record?: boolean, answerAfterMs?: number): Promise<void>;
  /** Resolves with the arrival time (`monotonicMs`) of the `count`-th request since the reset. */
  until(count: number, timeoutMs: number): Promise<Reached>;
  /** Requests and body bytes since the reset. */
  stats(): Promise<{ arrivals: number; bytes: number }>;
  /** The recorded arrivals (recording mode). */
  records(): Promise<Arrival[]>;
  /** The body of the last request since the reset, or null. */
  sample(): Promise<string | null>;
  cpuSeconds(): Promise<number>;
  stop(): Promise<void>;
};

/** Start the receiver process. */
export async function startReceiver(cwd: string): Promise<Receiver> {
  const child = await startBenchChild<ReceiverReady>(receiverScript, cwd);
  return {
    origin: `http://127.0.0.1:${child.ready.port}`,
    reset: (record = false, answerAfterMs = 0) => child.request({ kind: 'reset', record, answerAfterMs }),
    until: (count, timeoutMs) => child.request({ kind: 'until', count, timeoutMs }),
    stats: () => child.request({ kind: 'stats' }),
    records: () => child.request({ kind: 'records' }),
    sample: () => child.request({ kind: 'sample' }),
    cpuSeconds: () => child.cpuSeconds(),
    stop: () => child.stop(),
  };
}

/** The stand-in stacks-node process. */
export type StandInNode = Pick<BenchChild, 'cpuSeconds' | 'stop'> & {
  /** POST each line of `file` to `url`, one every `intervalMs`, each after the previous 200. */
  post(url: string, file: string, intervalMs: number): Promise<BlockAck[]>;
};

/** Start the stand-in stacks-node process. */
export async function startStandInNode(cwd: string): Promise<StandInNode> {
  const child = await startBenchChild<unknown>(nodeScript, cwd);
  return {
    post: (url, file, intervalMs) => child.request({ kind: 'post', url, file, intervalMs }),
    cpuSeconds: () => child.cpuSeconds(),
    stop: () => child.stop(),
  };
}
