// The parent's side of the Postgres bench's receiver: start it as a child process, reset it, wait
// for a count of arrivals, stop it.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { ReceiverReply, ReceiverRequest } from './pg-receiver.js';

const script = fileURLToPath(new URL('./pg-receiver.ts', import.meta.url));

/** A running receiver process and the means to talk to it. */
export type PgReceiver = {
  origin: string;
  reset(): Promise<void>;
  /** Resolves when `count` requests have arrived since the reset (epoch ms of that arrival and of the first). */
  until(count: number, timeoutMs: number): Promise<{ at: number; firstAt: number }>;
  stats(): Promise<{ arrivals: number; firstAt: number }>;
  stop(): Promise<void>;
};

/** Start the receiver child and wait for its port. */
export async function startPgReceiver(): Promise<PgReceiver> {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', script], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const next = <K extends ReceiverReply['kind']>(kind: K, timeoutMs = 30_000) =>
    new Promise<Extract<ReceiverReply, { kind: K }>>((resolve, reject) => {
      const timer = setTimeout(() => {
        child.off('message', onMessage);
        reject(new Error(`receiver: no "${kind}" within ${timeoutMs} ms`));
      }, timeoutMs);
      const onMessage = (message: ReceiverReply) => {
        if (message.kind !== kind) return;
        clearTimeout(timer);
        child.off('message', onMessage);
        resolve(message as Extract<ReceiverReply, { kind: K }>);
      };
      child.on('message', onMessage);
    });
  const send = (request: ReceiverRequest) => child.send(request);
  const { port } = await next('ready');
  return {
    origin: `http://127.0.0.1:${port}`,
    async reset() {
      const done = next('reset');
      send({ kind: 'reset' });
      await done;
    },
    async until(count, timeoutMs) {
      const done = next('reached', timeoutMs);
      send({ kind: 'until', count });
      const { at, firstAt } = await done;
      return { at, firstAt };
    },
    async stats() {
      const done = next('stats');
      send({ kind: 'stats' });
      const { arrivals, firstAt } = await done;
      return { arrivals, firstAt };
    },
    async stop() {
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.disconnect();
      await exited;
    },
  };
}
