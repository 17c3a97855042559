import { expect } from 'chai';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import type { NodeBlock } from '../../core/stacks-codec/node-block.js';
import { TEST_API_KEY } from './api-server.js';
import { ChainBuilder, TEST_KEYS, addressOf, stxTransfer } from './block-builder.js';
import { sampleDefinition } from './definitions.js';
import { TEST_DATABASE_URL } from './postgres.js';
import { send, type RawResponse } from './raw-http.js';
import type { TestReceiver } from './test-receiver.js';

/** A chain of `count` blocks, each with one STX transfer (every `stx_event` hook matches every block). */
export async function transferChain(count: number): Promise<NodeBlock[]> {
  const chain = new ChainBuilder();
  const tx = await stxTransfer({ recipient: addressOf(TEST_KEYS.bob), amount: 1n });
  return Array.from({ length: count }, () => chain.next({ transactions: [tx] }));
}

/** One answer the observer gave the node. */
export type ObserverAnswer = { height: number; status: number; retryAfter?: string };

/**
 * Post blocks as a stacks-node does: in order, each one again and again until it is answered 200
 * (a refused connection or any other status is retried after a short pause).
 */
export class NodePoster {
  readonly answers: ObserverAnswer[] = [];
  /** Heights the observer acknowledged with a 200. */
  readonly acknowledged: number[] = [];

  constructor(private observerPort: () => number) {}

  /** Post every block in order, `intervalMs` apart; resolves once all are acknowledged. */
  async post(blocks: NodeBlock[], intervalMs = 0): Promise<void> {
    for (const block of blocks) {
      for (;;) {
        const status = await this.postOnce(block);
        if (status === 200) break;
        await sleep(100);
      }
      this.acknowledged.push(block.block_height);
      if (intervalMs > 0) await sleep(intervalMs);
    }
  }

  private async postOnce(block: NodeBlock): Promise<number> {
    try {
      const res = await fetch(`http://127.0.0.1:${this.observerPort()}/new_block`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(block),
        signal: AbortSignal.timeout(30_000),
      });
      await res.arrayBuffer();
      this.answers.push({
        height: block.block_height,
        status: res.status,
        retryAfter: res.headers.get('retry-after') ?? undefined,
      });
      return res.status;
    } catch {
      return 0;
    }
  }
}

/** Call the API as a client that honours 503 + Retry-After (retrying after a short pause). */
export async function callApi(
  baseUrl: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<RawResponse> {
  for (;;) {
    const res = await send(baseUrl, method, path, {
      key: TEST_API_KEY,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (res.status !== 503) return res;
    await sleep(200);
  }
}

/** Register `count` enabled hooks matching every STX event, each to its own receiver path (`prefix` + i). */
export async function registerTransferHooks(
  apiBase: string,
  receiver: TestReceiver,
  count: number,
  prefix = '/hook-',
): Promise<string[]> {
  const paths: string[] = [];
  for (let i = 0; i < count; i++) {
    const path = `${prefix}${i}`;
    const res = await callApi(
      apiBase,
      'POST',
      '/chainhooks/me',
      sampleDefinition({
        name: `outage-${i}`,
        filters: { events: [{ type: 'stx_event' }] },
        action: { type: 'http_post', url: receiver.url(path) },
        options: { enable_on_registration: true },
      }),
    );
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    paths.push(path);
  }
  return paths;
}

/** Each path's block heights in first-delivery order (a redelivery repeats its webhook-id and is skipped). */
export function deliveredHeights(receiver: TestReceiver): Map<string, number[]> {
  const seen = new Set<string>();
  const byPath = new Map<string, number[]>();
  for (const request of receiver.received) {
    const id = `${request.path}|${String(request.headers['webhook-id'])}`;
    if (seen.has(id)) continue;
    seen.add(id);
    const height = JSON.parse(request.body).event.apply[0].block_identifier.index as number;
    byPath.set(request.path, [...(byPath.get(request.path) ?? []), height]);
  }
  return byPath;
}

/** Wait until every path has received every block once, then check each got them all in chain order. */
export async function expectEveryBlockDelivered(
  receiver: TestReceiver,
  paths: string[],
  blocks: NodeBlock[],
  withinMs = 120_000,
): Promise<void> {
  const heights = blocks.map((b) => b.block_height);
  const deadline = Date.now() + withinMs;
  const complete = () => {
    const delivered = deliveredHeights(receiver);
    return paths.every((path) => (delivered.get(path)?.length ?? 0) >= heights.length);
  };
  while (!complete() && Date.now() < deadline) await sleep(200);
  const delivered = deliveredHeights(receiver);
  for (const path of paths) expect(delivered.get(path) ?? [], path).to.deep.equal(heights);
}

/** Wait until `check` holds (polling), failing with `what` after `withinMs`. */
export async function eventually(
  check: () => boolean | Promise<boolean>,
  what: string,
  withinMs = 30_000,
): Promise<void> {
  const deadline = Date.now() + withinMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

/** How many times `text` occurs in `output`. */
export function occurrences(output: string, text: string): number {
  return output.split(text).length - 1;
}

/**
 * End the sessions of one schema's processes (they name themselves `stackhooks [kind] <schema>`),
 * all of them or those of one `kind` (`hook feed`, `ingest lock`, `probe`); returns how many.
 */
export async function terminateSessionsOf(schema: string, kind?: string): Promise<number> {
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
  try {
    const { rows } = await admin.query(
      kind
        ? `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1`
        : `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
           WHERE application_name LIKE 'stackhooks %' AND right(application_name, length($1) + 1) = ' ' || $1`,
      [kind ? `stackhooks ${kind} ${schema}` : schema],
    );
    return rows.length;
  } finally {
    await admin.end();
  }
}
