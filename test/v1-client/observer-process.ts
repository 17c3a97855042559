// The official 1.x client's ChainhookEventObserver run in a child process (observer.cjs), as a
// service built on it runs it, with `validate_chainhook_payloads` on: it answers a payload its
// own schema refuses with an error, which delivery keeps retrying, so a payload it reports passed.
import { fork, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';

type Message = { type: 'started' | 'closed' } | { type: 'payload'; payload: unknown };

/** A free TCP port on loopback. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Poll `condition` every 50 ms for up to a minute. */
export async function until(condition: () => Promise<boolean> | boolean, what: string): Promise<void> {
  for (let i = 0; i < 1200; i++) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`gave up waiting for ${what}`);
}

/** A running client observer: the payloads it accepted, and closing it (it deregisters its predicates). */
export type ClientObserver = { payloads: unknown[]; close(): Promise<void>; kill(): void };

/** Start the client's observer against a 1.x listener, registering `predicates`, and wait until it has. */
export async function startClientObserver(options: {
  v1Port: number;
  predicateDir: string;
  predicates: object[];
}): Promise<ClientObserver> {
  const port = await freePort();
  const child: ChildProcess = fork(new URL('./observer.cjs', import.meta.url), {
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const payloads: unknown[] = [];
  const said = new Set<string>();
  child.on('message', (message: Message) => {
    said.add(message.type);
    if (message.type === 'payload') payloads.push(message.payload);
  });
  const tell = (message: object, answer: 'started' | 'closed') => {
    child.send(message);
    return until(() => said.has(answer), `the observer ${answer}`);
  };
  await tell(
    {
      type: 'start',
      observer: {
        hostname: '127.0.0.1',
        port,
        auth_token: 'observer-token',
        external_base_url: `http://127.0.0.1:${port}`,
        wait_for_chainhook_node: true,
        validate_chainhook_payloads: true,
        predicate_disk_file_path: options.predicateDir,
        predicate_health_check_interval_ms: 100,
        node_type: 'chainhook',
      },
      chainhook: { base_url: `http://127.0.0.1:${options.v1Port}` },
      predicates: options.predicates,
    },
    'started',
  );
  return {
    payloads,
    close: () => tell({ type: 'close' }, 'closed'),
    kill: () => {
      if (!said.has('closed')) child.kill();
    },
  };
}
