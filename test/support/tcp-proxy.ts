import { connect, createServer, type Server, type Socket } from 'node:net';
import { once } from 'node:events';
import { freePort } from './server-process.js';

/** A loopback TCP proxy a test breaks and mends, standing in for a network or a database going away. */
export type TcpProxy = {
  /** The port clients connect to (kept across cuts). */
  port: number;
  /** `url` with its host and port replaced by the proxy's. */
  via(url: string): string;
  /** Drop every connection through the proxy and refuse new ones (ECONNREFUSED), as a stopped server does. */
  cut(): Promise<void>;
  /** Accept connections again on the same port. */
  mend(): Promise<void>;
  /** Connections accepted so far. */
  readonly accepted: number;
  close(): Promise<void>;
};

/** Start a proxy on a free loopback port to `target`; `open: false` starts it cut. */
export async function startTcpProxy(
  target: { host: string; port: number },
  options: { open?: boolean } = {},
): Promise<TcpProxy> {
  const port = await freePort();
  const sockets = new Set<Socket>();
  let accepted = 0;
  let server: Server | undefined;

  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    // A reset from either side is expected here; it must not become an uncaught error.
    socket.on('error', () => socket.destroy());
  };
  const listen = async () => {
    const next = createServer((client) => {
      accepted++;
      const upstream = connect(target.port, target.host);
      track(client);
      track(upstream);
      client.pipe(upstream);
      upstream.pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    next.listen(port, '127.0.0.1');
    await once(next, 'listening');
    server = next;
  };
  const stop = async () => {
    const current = server;
    server = undefined;
    for (const socket of sockets) socket.destroy();
    if (current) await new Promise((resolve) => current.close(resolve));
  };
  if (options.open !== false) await listen();

  return {
    port,
    via(url) {
      const parsed = new URL(url);
      parsed.hostname = '127.0.0.1';
      parsed.port = String(port);
      return parsed.toString();
    },
    cut: stop,
    async mend() {
      if (!server) await listen();
    },
    get accepted() {
      return accepted;
    },
    close: stop,
  };
}
