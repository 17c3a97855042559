// A stacks-node RPC on loopback that answers `/v2/contracts/interface/{address}/{name}` as told:
// with the interfaces it holds (404 for others), never, with a 500, or with garbage.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** How the fake node answers interface requests. */
export type FakeNodeMode = 'answer' | 'silent' | 'error' | 'garbage' | 'busy';

/** A running fake node. */
export type FakeNodeRpc = {
  /** Its base URL, e.g. `http://127.0.0.1:41234`. */
  url: string;
  /** The interfaces it knows, by contract id; set or delete at will. */
  interfaces: Map<string, unknown>;
  /** The interface it answers for any contract not in `interfaces` (404 when undefined). */
  anyInterface: unknown;
  /** How it answers from now on (default `answer`). */
  mode: FakeNodeMode;
  /** Milliseconds it waits before each answer (default 0). */
  delayMs: number;
  /** The contract ids it was asked about, in arrival order. */
  requests: string[];
  close(): Promise<void>;
};

const ROUTE = /^\/v2\/contracts\/interface\/([^/]+)\/([^/?]+)$/;

/** Start a fake node RPC on a free loopback port. */
export async function startFakeNodeRpc(interfaces: Record<string, unknown> = {}): Promise<FakeNodeRpc> {
  const node: Omit<FakeNodeRpc, 'url' | 'close'> = {
    interfaces: new Map(Object.entries(interfaces)),
    anyInterface: undefined,
    mode: 'answer',
    delayMs: 0,
    requests: [],
  };
  const answer = (req: IncomingMessage, res: ServerResponse) => {
    const match = ROUTE.exec(req.url ?? '');
    if (req.method !== 'GET' || !match) {
      res.writeHead(404).end();
      return;
    }
    const id = `${decodeURIComponent(match[1])}.${decodeURIComponent(match[2])}`;
    node.requests.push(id);
    const mode = node.mode;
    if (mode === 'silent') return; // the socket stays open until close()
    const reply = () => {
      if (mode === 'error') res.writeHead(500, { 'content-type': 'text/plain' }).end('internal error');
      else if (mode === 'busy') res.writeHead(503).end();
      else if (mode === 'garbage')
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"functions": [{');
      else {
        const body = node.interfaces.get(id) ?? node.anyInterface;
        if (body === undefined) res.writeHead(404).end('No contract interface data found');
        else res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      }
    };
    if (node.delayMs > 0) setTimeout(reply, node.delayMs);
    else reply();
  };
  const server = createServer(answer);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(node, {
    url: `http://127.0.0.1:${port}`,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  });
}
