import { Agent as HttpAgent, get as httpGet, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, get as httpsGet } from 'node:https';
import { readContractAbi } from '../../core/contracts/abi-shape.js';
import type { ContractInterfaceSource, InterfaceAnswer } from '../../core/ports/contract-interface-source.js';

/** How to reach a node's RPC. */
export type NodeRpcOptions = {
  /** The RPC's base URL, e.g. `http://127.0.0.1:20443` (a path prefix is kept). */
  url: string;
  /** The longest a request may take (default 2 s). */
  timeoutMs?: number;
  /** Requests out at once (default 64). */
  concurrency?: number;
};

/** Interface bodies are a few KB, the largest boot contract's 50 KB: anything past this is no ABI. */
const MAX_BODY_BYTES = 4 * 1024 * 1024;

/** A response's status and body, or why there was none. */
type Reply = { status: number; body: string } | { failed: string };

/**
 * Contract interfaces from a stacks-node's RPC: `GET {url}/v2/contracts/interface/{address}/{name}`
 * (any server that answers that route will do), over kept-alive connections. A 404 or a 400 is
 * "no such contract"; a 429 or a 503 means the node is too busy, like no answer at all; any other
 * status, or a body that is not a contract interface, is a refusal.
 */
export class NodeRpcInterfaceSource implements ContractInterfaceSource {
  readonly timeoutMs: number;
  readonly concurrency: number;
  readonly #base: string;
  readonly #get: typeof httpGet;
  readonly #agent: HttpAgent;

  constructor(options: NodeRpcOptions) {
    this.#base = options.url.replace(/\/+$/, '');
    this.timeoutMs = options.timeoutMs ?? 2_000;
    this.concurrency = options.concurrency ?? 64;
    const https = this.#base.startsWith('https:');
    // Node's own client: a request costs a fraction of what `fetch` costs, which counts when a busy
    // block calls hundreds of contracts nobody has asked about.
    this.#get = https ? httpsGet : httpGet;
    const agentOptions = { keepAlive: true, maxSockets: this.concurrency };
    this.#agent = https ? new HttpsAgent(agentOptions) : new HttpAgent(agentOptions);
  }

  /** Ask the node for one contract's interface. */
  async fetchInterface(contractId: string): Promise<InterfaceAnswer> {
    const dot = contractId.indexOf('.');
    const address = encodeURIComponent(contractId.slice(0, dot));
    const name = encodeURIComponent(contractId.slice(dot + 1));
    const reply = await this.#request(`${this.#base}/v2/contracts/interface/${address}/${name}`);
    if ('failed' in reply) return { kind: 'unreachable', reason: reply.failed };
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
    this.#agent.destroy();
  }

  #request(url: string): Promise<Reply> {
    return new Promise((resolve) => {
      const signal = AbortSignal.timeout(this.timeoutMs);
      const request = this.#get(
        url,
        { agent: this.#agent, signal, headers: { accept: 'application/json' } },
        (response: IncomingMessage) => {
          const chunks: Buffer[] = [];
          let size = 0;
          response.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size > MAX_BODY_BYTES) {
              response.destroy();
              resolve({ status: 200, body: '' });
            } else chunks.push(chunk);
          });
          response.on('end', () =>
            resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }),
          );
          response.on('error', (err) => resolve({ failed: describe(err, signal) }));
        },
      );
      request.on('error', (err) => resolve({ failed: describe(err, signal) }));
    });
  }
}

function describe(err: Error, signal: AbortSignal): string {
  return signal.aborted ? 'timed out' : err.message;
}
