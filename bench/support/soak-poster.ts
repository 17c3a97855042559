// The node's side of the soak's observer posts: a process of its own that posts each body it is
// handed and times the answer, as a stacks-node posts from a thread that does nothing else. Timed
// in the bench's own process, an answer would also wait for whatever that process's event loop
// is doing then (the receiver's reports, the window's reads).
import { spawn } from 'node:child_process';

const POSTER = `
  process.on('message', async ({ url, body }) => {
    const started = performance.now();
    let status = 0;
    try {
      // A body-less message is a GET: fetch's first use loads its client, which is not the server's time.
      const res = await fetch(url, body === undefined ? {} : { method: 'POST', body, headers: { 'content-type': 'application/json' } });
      await res.arrayBuffer();
      status = res.status;
    } catch {}
    process.send({ ms: performance.now() - started, status });
  });
  process.send({ ready: true });
`;

/** One post's answer: how long it took (ms, from the request's start to its body read) and its status (0: none). */
export type PostAnswer = { ms: number; status: number };

/**
 * The poster process: `post` sends one body to `url` (a GET without one) and resolves with its
 * answer; one post at a time.
 */
export type SoakPoster = { post(url: string, body?: string): Promise<PostAnswer>; stop(): void };

/** Start the poster process and wait until it can take a body. */
export async function startSoakPoster(): Promise<SoakPoster> {
  const child = spawn(process.execPath, ['-e', POSTER], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  process.once('exit', () => child.kill());
  await new Promise<void>((ready) => child.once('message', () => ready()));
  return {
    post: (url, body) =>
      new Promise<PostAnswer>((answered) => {
        child.once('message', (answer: PostAnswer) => answered(answer));
        child.send({ url, body });
      }),
    stop: () => child.kill(),
  };
}
