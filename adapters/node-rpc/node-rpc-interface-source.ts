import { Pool } from 'undici';
import { readContractAbi } from '../../core/contracts/abi-shape.js';
import type { ContractInterfaceSource, InterfaceAnswer } from '../../core/ports/contract-interface-source.js';

/** How to reach a node's RPC. */
export type NodeRpcOptions = {
  /** The RPC's base URL, e.g. `http://127.0.0.1:20443` (a path prefix is kept). */
  url: string;
  /** The longest a request may take (default 2 s). */
  timeoutMs?: number;
  /** Requests out at once (default 128). */
  concurrency?: number;
};

/**
 * Requests out at once by default: a busy block's unknown contracts (a couple of hundred) go in two
 * rounds, while a stacks-node serves 1,000 HTTP clients (its `max_http_clients`) to everyone.
 */
export const DEFAULT_NODE_RPC_CONCURRENCY = 128;

/** Interface bodies are a few KB, the largest boot contract's 50 KB: anything past this is no ABI. */
const MAX_BODY_BYTES = 4 * 1024 * 1024;

/** A response's status and body, or why there was none. */
type Reply = { status: number; body: string } | { failed: string } | { refused: string };

/** undici's codes for a connection, a status line or a body that did not come within the timeout. */
const TIMEOUTS = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

/**
 * Contract interfaces from a stacks-node's RPC: `GET {url}/v2/contracts/interface/{address}/{name}`
 * (any server that answers that route will do), over kept-alive connections. A 404 or a 400 is
 * "no such contract"; a 429 or a 503 means the node is too busy, like no answer at all; any other
 * status, or a body that is not a contract interface, is a refusal.
 */
export class NodeRpcInterfaceSource implements ContractInterfaceSource {
  readonly timeoutMs: number;
  readonly concurrency: number;
  /** The base URL's path, without a trailing slash ('' for none). */
  readonly #prefix: string;
  readonly #pool: Pool;

  constructor(options: NodeRpcOptions) {
    const base = new URL(options.url);
    this.#prefix = base.pathname.replace(/\/+$/, '');
    this.timeoutMs = options.timeoutMs ?? 2_000;
    this.concurrency = options.concurrency ?? DEFAULT_NODE_RPC_CONCURRENCY;
    // undici's pool: a request costs about half of what node:http's client costs, which counts when
    // a busy block calls hundreds of contracts nobody has asked about.
    // The timeouts are the pool's rather than a signal per request: a timer and an abort listener
    // for each of hundreds of requests cost more than the request's own parsing.
    this.#pool = new Pool(base.origin, {
      connections: this.concurrency,
      pipelining: 1,
      connect: { timeout: this.timeoutMs },
      headersTimeout: this.timeoutMs,
      bodyTimeout: this.timeoutMs,
      maxResponseSize: MAX_BODY_BYTES,
    });
  }

  /** Ask the node for one contract's interface. */
  async fetchInterface(contractId: string): Promise<InterfaceAnswer> {
    const dot = contractId.indexOf('.');
    const address = encodeURIComponent(contractId.slice(0, dot));
    const name = encodeURIComponent(contractId.slice(dot + 1));
    const reply = await this.#request(`${this.#prefix}/v2/contracts/interface/${address}/${name}`);
    if ('failed' in reply) return { kind: 'unreachable', reason: reply.failed };
    if ('refused' in reply) return { kind: 'refused', reason: reply.refused };
    if (reply.status === 404 || reply.status === 400) return { kind: 'not_found' };
    if (reply.status === 429 || reply.status === 503) {
      return { kind: 'unreachable', reason: `HTTP ${reply.status}` };
    }
    if (reply.status !== 200) return { kind: 'refused', reason: `HTTP ${reply.status}` };
    let body: unknown;
    try {
      body = JSON.parse(reply.body);
    } catch {
      return { kind: 'refused', reason: 'the body is not JSON' };
    }
    const abi = readContractAbi(body);
    return abi ? { kind: 'found', abi } : { kind: 'refused', reason: 'the body is not a contract interface' };
  }

  /** Close the kept-alive connections. */
  close(): void {
    void this.#pool.destroy().catch(() => undefined);
  }

  // The dispatcher's handler rather than `pool.request`: no response stream and no promise chain a
  // request, 10–15% of a warm request's client CPU and a third of a cold one's, which counts when a
  // block calls hundreds of contracts nobody has asked about.
  #request(path: string): Promise<Reply> {
    return new Promise((resolve) => {
      let status = 0;
      const chunks: Buffer[] = [];
      this.#pool.dispatch(
        { path, method: 'GET', headers: { accept: 'application/json' } },
        {
          // Its presence tells undici this handler speaks the controller API (else it is wrapped as a legacy one).
          onRequestStart: () => undefined,
          onResponseStart: (_controller, statusCode) => {
            status = statusCode;
          },
          onResponseData: (_controller, chunk) => {
            chunks.push(chunk);
          },
          onResponseEnd: () => resolve({ status, body: Buffer.concat(chunks).toString('utf8') }),
          onResponseError: (_controller, err) => resolve(failure(err)),
        },
      );
    });
  }
}

/** Why a request got no usable response: a body over the limit is a refusal, anything else no answer. */
function failure(err: Error): Reply {
  const code = (err as { code?: unknown }).code;
  if (code === 'UND_ERR_RES_EXCEEDED_MAX_SIZE') return { refused: `a body over ${MAX_BODY_BYTES} bytes` };
  return { failed: typeof code === 'string' && TIMEOUTS.has(code) ? 'timed out' : err.message };
}
