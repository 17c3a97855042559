// The load of the hooks bench: registrations through the REST API (many in flight, or one at a
// time for latency), pages of GET /me, and observer posts, over keep-alive node:http connections.
import http from 'node:http';
import type { HookDefinition } from '../../core/hooks/definition.js';

/** One answer: its status and how long it took, in ms. */
export type Timed = { status: number; ms: number };

/** A keep-alive client of one server, with room for `sockets` requests in flight. */
export class BenchClient {
  readonly #agent: http.Agent;

  constructor(
    private readonly port: number,
    private readonly key: string,
    sockets = 64,
  ) {
    this.#agent = new http.Agent({ keepAlive: true, maxSockets: sockets });
  }

  /** Send one request and time it to the end of the answer's body. */
  request(method: string, path: string, body?: string, port = this.port): Promise<Timed> {
    const start = performance.now();
    return new Promise((resolve, reject) => {
      const req = http.request(
        {
          host: '127.0.0.1',
          port,
          method,
          path,
          agent: this.#agent,
          headers: { 'x-api-key': this.key, 'content-type': 'application/json' },
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - start }));
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  }

  /** Register hook number `n`; throws unless the API answers 200. */
  async register(n: number): Promise<Timed> {
    const answer = await this.request('POST', '/chainhooks/me', JSON.stringify(definitionOf(n)));
    if (answer.status !== 200) throw new Error(`registration ${n} answered ${answer.status}`);
    return answer;
  }

  /** Register hooks `from` … `to - 1` with `inFlight` requests at a time; registrations a second. */
  async registerMany(from: number, to: number, inFlight: number): Promise<number> {
    let next = from;
    const start = performance.now();
    await Promise.all(
      Array.from({ length: inFlight }, async () => {
        while (next < to) await this.register(next++);
      }),
    );
    return (to - from) / ((performance.now() - start) / 1000);
  }

  /** Close the client's idle connections. */
  close(): void {
    this.#agent.destroy();
  }
}

/**
 * Hook `n`: a contract call filter on a contract of its own (the bench's blocks carry STX
 * transfers, so no hook matches and the figures are the stores' and the API's, not delivery's).
 */
export function definitionOf(n: number): HookDefinition {
  return {
    name: `bench hook ${n}`,
    version: '1',
    chain: 'stacks',
    network: 'mainnet',
    filters: {
      events: [{ type: 'contract_call', contract_identifier: `SP000000000000000000002Q6VF78.bench-${n}` }],
    },
    action: { type: 'http_post', url: `http://127.0.0.1:9/hook/${n}` },
    options: { enable_on_registration: true },
  } as HookDefinition;
}

/** The value below which `share` of the sorted values fall (nearest rank). */
export function percentile(values: readonly number[], share: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(share * sorted.length) - 1))];
}
