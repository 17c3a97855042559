import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request a local target received, as it arrived. */
export type SeenRequest = { method: string; url: string; headers: IncomingMessage['headers']; body: string };

/** A webhook target on 127.0.0.1 that records what reaches it. */
export type LocalTarget = {
  url: string;
  port: number;
  requests: SeenRequest[];
  /** TCP connections accepted so far (keep-alive reuse shows as fewer connections than requests). */
  connections: number;
  close(): Promise<void>;
};

/** Start a target that answers every request with `answer` once its body has arrived. */
export async function startTarget(
  answer: (res: ServerResponse, req: SeenRequest) => void = (res) => res.end('ok'),
): Promise<LocalTarget> {
  const requests: SeenRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const seen = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(seen);
      answer(res, seen);
    });
  });
  const target = {
    url: '',
    port: 0,
    requests,
    connections: 0,
    close: async () => {
      server.closeAllConnections();
      server.close();
    },
  };
  server.on('connection', () => target.connections++);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  target.port = (server.address() as AddressInfo).port;
  target.url = `http://127.0.0.1:${target.port}/hook`;
  return target;
}

/** A port on 127.0.0.1 that nothing listens on (connections to it are refused). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  server.close();
  await once(server, 'close');
  return port;
}
