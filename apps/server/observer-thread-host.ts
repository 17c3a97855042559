import { Worker } from 'node:worker_threads';
import type { Logger } from '../../core/ports/logger.js';
import type { DiskSpaceReport } from '../../core/storage/write-failure.js';
import type {
  ObserverThreadCommand,
  ObserverThreadData,
  ObserverThreadReport,
} from './observer-thread-messages.js';

/** What the instance does with the observer thread's reports. */
export type ObserverThreadListener = {
  /** An entry is durably in the log, `seconds` after its post arrived, its append `appendSeconds` of them. */
  appended(entry: {
    id: number;
    path: string;
    receivedAt: number;
    seconds: number;
    appendSeconds: number;
  }): void;
  logger: Logger;
  space: DiskSpaceReport | undefined;
};

/** The observer running in its own thread. */
export type ObserverThread = {
  port: number;
  /** Stop accepting posts, let those in flight finish (up to `graceMs`), close the log, end the thread. */
  stop(graceMs: number): Promise<void>;
};

type Thread = { worker: Worker; ended: Promise<void> };

/** How long after an unexpected end the thread is started again. */
const RESTART_DELAY_MS = 1_000;

/**
 * The worker for the observer's thread. Run from the TypeScript sources (tests, benches under
 * tsx), the thread must load tsx first: a worker does not inherit the loader of the thread that
 * started it.
 */
function newWorker(data: ObserverThreadData): Worker {
  const entry = new URL(
    import.meta.url.endsWith('.ts') ? './observer-thread.ts' : './observer-thread.js',
    import.meta.url,
  );
  if (!entry.pathname.endsWith('.ts')) return new Worker(entry, { workerData: data });
  const bootstrap = `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(entry.href)}); })`;
  return new Worker(bootstrap, { eval: true, workerData: data });
}

/** Start one thread and resolve with its bound port once it listens; reject with why it could not. */
function launch(
  data: ObserverThreadData,
  listener: ObserverThreadListener,
): Promise<{ worker: Worker; port: number; ended: Promise<void> }> {
  const worker = newWorker(data);
  const ended = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    let listening = false;
    worker.on('message', (report: ObserverThreadReport) => {
      switch (report.type) {
        case 'listening':
          listening = true;
          return resolve({ worker, port: report.port, ended });
        case 'failed':
          return reject(Object.assign(new Error(report.message), { code: report.code, port: report.port }));
        case 'appended':
          return listener.appended(report);
        case 'log':
          return listener.logger[report.level](report.message, report.fields);
        case 'space':
          if (report.outcome === 'wrote') return listener.space?.wrote(report.store);
          return listener.space?.failed(
            report.store,
            Object.assign(new Error(report.message), { code: report.code }),
          );
        case 'stopped':
          return;
      }
    });
    // An uncaught error ends the thread ('exit' follows); before it listens, it is why it could not.
    worker.on('error', (err) => {
      if (listening) listener.logger.error('the observer thread failed', { error: String(err) });
      reject(err);
    });
    worker.once('exit', (code) => reject(new Error(`the observer thread ended (exit code ${code})`)));
  });
}

/**
 * Run the observer in a thread of its own, appending to the log `data.source` names. A thread that
 * ends unexpectedly is logged and started again on the same port, so the node's retries find it.
 */
export async function startObserverThread(
  data: ObserverThreadData,
  listener: ObserverThreadListener,
): Promise<ObserverThread> {
  const first = await launch(data, listener);
  const bound = first.port;
  let current: Thread | undefined = first;
  let stopping = false;
  let restart: NodeJS.Timeout | undefined;
  const scheduleRestart = (): void => {
    restart = setTimeout(() => {
      launch({ ...data, port: bound }, listener).then(
        (next) => {
          current = next;
          watch(next);
          if (stopping) void next.worker.terminate();
        },
        (err: unknown) => {
          listener.logger.error('the observer thread could not start again; retrying', {
            error: String(err),
          });
          if (!stopping) scheduleRestart();
        },
      );
    }, RESTART_DELAY_MS);
  };
  const watch = (thread: Thread): void => {
    void thread.ended.then(() => {
      if (current === thread) current = undefined;
      if (stopping) return;
      listener.logger.error('the observer thread ended; starting it again');
      scheduleRestart();
    });
  };
  watch(current);
  return {
    port: bound,
    async stop(graceMs) {
      stopping = true;
      clearTimeout(restart);
      const thread = current;
      if (!thread) return;
      thread.worker.postMessage({ type: 'stop', graceMs } satisfies ObserverThreadCommand);
      // The thread closes itself; one that hangs past its grace is ended.
      const cut = setTimeout(() => void thread.worker.terminate(), graceMs + 5_000);
      await thread.ended;
      clearTimeout(cut);
    },
  };
}
