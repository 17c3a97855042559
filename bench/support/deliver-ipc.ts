// The delivery bench's child processes (the receiver, the stand-in stacks-node) and how the bench
// talks to them: requests over Node's IPC channel, answered by id. Times cross process boundaries
// as `monotonicMs()`: CLOCK_MONOTONIC is one clock for every process on a Linux machine, so a time
// taken in a child and one taken in the bench can be subtracted (Date.now() could too, but only to
// the millisecond, and it jumps when the wall clock is set).
import { fork, type ChildProcess } from 'node:child_process';

/** Milliseconds on the machine-wide monotonic clock (microsecond resolution), comparable across processes. */
export function monotonicMs(): number {
  return Number(process.hrtime.bigint() / 1000n) / 1000;
}

/** A request to a child: a kind and its arguments. */
export type ChildRequest = { kind: string; [field: string]: unknown };

type Envelope = { id: number; request: ChildRequest };
type Answer = { id: number; result?: unknown; error?: string };

/** A running child process that answers requests. */
export type BenchChild = {
  /** Send a request and wait for its answer. */
  request<T>(request: ChildRequest): Promise<T>;
  /** CPU seconds (user + system) the child has used so far. */
  cpuSeconds(): Promise<number>;
  /** Stop the child (by its pid) and wait for it to exit. */
  stop(): Promise<void>;
};

/**
 * Start `node --import tsx SCRIPT` with an IPC channel in `cwd`; resolves once the child said it is
 * ready (its first message, returned as `ready`).
 */
export async function startBenchChild<R>(script: string, cwd: string): Promise<BenchChild & { ready: R }> {
  const child: ChildProcess = fork(script, [], {
    cwd,
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  let nextId = 0;
  const ready = await new Promise<R>((resolve, reject) => {
    child.once('message', (message) => resolve((message as { ready: R }).ready));
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code} before it was ready`)));
  });
  child.on('message', (message) => {
    const answer = message as Answer;
    const waiter = pending.get(answer.id);
    if (!waiter) return;
    pending.delete(answer.id);
    if (answer.error !== undefined) waiter.reject(new Error(`${script}: ${answer.error}`));
    else waiter.resolve(answer.result);
  });
  child.on('exit', (code, signal) => {
    for (const waiter of pending.values()) waiter.reject(new Error(`${script} exited (${code ?? signal})`));
    pending.clear();
  });
  const request = <T>(body: ChildRequest): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      child.send({ id, request: body } satisfies Envelope);
    });
  return {
    ready,
    request,
    cpuSeconds: () => request<number>({ kind: 'cpu' }),
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/**
 * In a child: tell the parent `ready`, then answer each request with `handle` (a `cpu` request is
 * answered here). The child exits when the parent goes away.
 */
export function serveBenchRequests(
  ready: unknown,
  handle: (request: ChildRequest) => unknown | Promise<unknown>,
): void {
  const send = process.send?.bind(process);
  if (!send) throw new Error('run this through the delivery bench: it needs an IPC channel');
  process.on('message', (message) => {
    const { id, request } = message as Envelope;
    Promise.resolve()
      .then(() => {
        if (request.kind === 'cpu') {
          const { user, system } = process.cpuUsage();
          return (user + system) / 1e6;
        }
        return handle(request);
      })
      .then(
        (result) => send({ id, result } satisfies Answer),
        (err: unknown) => send({ id, error: String(err) } satisfies Answer),
      );
  });
  process.on('disconnect', () => process.exit(0));
  send({ ready });
}
