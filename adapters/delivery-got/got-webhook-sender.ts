import http, { type ClientRequest } from 'node:http';
import https from 'node:https';
import { performance } from 'node:perf_hooks';
import got, { type Got, type PlainResponse, type Request } from 'got';
import type { SendResult, WebhookRequest, WebhookSender } from '../../core/ports/webhook-sender.js';
import { describeSendError } from './send-error.js';
import { parseRetryAfter } from './retry-after.js';
import {
  addressRefusal,
  guardedLookup,
  literalAddress,
  systemLookup,
  type HostLookup,
} from './target-resolution.js';

/** How the got sender connects and what it lets through. */
export type GotWebhookSenderOptions = {
  /** Let webhooks reach loopback, private, link-local and metadata addresses (development only). */
  allowPrivateTargets: boolean;
  /** Resolves host names; `dns.lookup` with every address unless a test injects one. */
  lookup?: HostLookup;
  /**
   * Open connections per origin; more requests wait for a free one (default: no limit, so an
   * attempt never waits: the dispatcher's lanes bound how many are in flight). A wait for a
   * socket is not the receiver's time: the attempt's timeout starts once the request has one.
   */
  maxSocketsPerOrigin?: number;
  /** The most of a response body read before the connection is dropped. */
  maxBodyBytes?: number;
};

// Receivers answer with a status; their body is only read so the connection can be reused.
const DEFAULT_MAX_BODY_BYTES = 64 * 1024;

/** Sends webhook POSTs with got over keep-alive connections, refusing non-public targets. */
export class GotWebhookSender implements WebhookSender {
  private readonly agents: { http: http.Agent; https: https.Agent };
  private readonly client: Got;
  private readonly maxBodyBytes: number;

  constructor(private readonly options: GotWebhookSenderOptions) {
    const agentOptions = { keepAlive: true, maxSockets: options.maxSocketsPerOrigin ?? Infinity };
    this.agents = { http: new http.Agent(agentOptions), https: new https.Agent(agentOptions) };
    this.maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
    this.client = got.extend({
      agent: this.agents,
      dnsLookup: guardedLookup(options.lookup ?? systemLookup, options.allowPrivateTargets),
      // Retries belong to the delivery queue, which spaces them out and records each attempt.
      retry: { limit: 0 },
      // A redirect could lead anywhere (an internal address included); it counts as a failed attempt.
      followRedirect: false,
      throwHttpErrors: false,
      // Nothing is done with the body, so there is no reason to ask for (and inflate) compressed ones.
      decompress: false,
    });
  }

  /** POST the body with exactly the given headers; report the status or why none arrived. */
  async send(request: WebhookRequest): Promise<SendResult> {
    // The receiver's time starts when the request has a socket (see `exchange`).
    const clock = { started: performance.now() };
    const report = (outcome: Partial<SendResult>): SendResult => ({
      status: null,
      retryAfterSeconds: null,
      error: null,
      refusedTarget: false,
      ...outcome,
      latencyMs: Math.round(performance.now() - clock.started),
    });
    // A URL that can never be sent to is reported like a refused target: retrying cannot help.
    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      return report({ error: `invalid URL ${request.url}`, refusedTarget: true });
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      return report({ error: `unsupported scheme ${url.protocol} (use http or https)`, refusedTarget: true });
    }
    // Sockets skip the lookup for an IP literal, so the guard checks literals here.
    const literal = literalAddress(url);
    if (literal && !this.options.allowPrivateTargets) {
      const refusal = addressRefusal(url.hostname, [literal]);
      if (refusal) return report({ error: refusal, refusedTarget: true });
    }
    try {
      const response = await this.exchange(url, request, clock);
      return report({
        status: response.statusCode,
        retryAfterSeconds: parseRetryAfter(response.headers['retry-after']),
      });
    } catch (err) {
      return report(describeSendError(err, url.hostname, request.timeoutMs));
    }
  }

  /** Close the kept-alive connections (at shutdown). */
  close(): void {
    this.agents.http.destroy();
    this.agents.https.destroy();
  }

  /**
   * The response once its body has ended (read up to the cap, the rest dropped with the connection).
   * The timeout runs from the moment the request has a socket until the body ends: a wait for a
   * free connection to the origin is not counted (so it can never time out an attempt, nor make a
   * payload that was never sent look failed and go out twice), and a target that trickles its body
   * forever times out like one that never answers. `clock.started` moves to the socket's arrival.
   */
  private async exchange(
    url: URL,
    request: WebhookRequest,
    clock: { started: number },
  ): Promise<PlainResponse> {
    const headers: Record<string, string | undefined> = { ...request.headers };
    // got would add its own user-agent; the caller's headers are all that should go out.
    if (!Object.keys(headers).some((name) => name.toLowerCase() === 'user-agent')) {
      headers['user-agent'] = undefined;
    }
    const abort = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const stream: Request = this.client.stream.post(url, {
      headers,
      body: request.body,
      signal: abort.signal,
    });
    stream.once('request', (outgoing: ClientRequest) =>
      outgoing.once('socket', () => {
        clock.started = performance.now();
        // got turns an abort whose reason is named TimeoutError into its own TimeoutError.
        const reason = new DOMException(`timeout after ${request.timeoutMs} ms`, 'TimeoutError');
        timer = setTimeout(() => abort.abort(reason), request.timeoutMs);
      }),
    );
    try {
      // Errors after the response arrive through the iteration below; this listener keeps a late
      // one (after the body was dropped) from going unhandled.
      const response = await new Promise<PlainResponse>((resolve, reject) => {
        stream.once('response', resolve);
        stream.on('error', reject);
      });
      let read = 0;
      for await (const chunk of stream as AsyncIterable<Buffer>) {
        read += chunk.length;
        if (read >= this.maxBodyBytes) break; // leaving the loop destroys the stream and its socket
      }
      return response;
    } finally {
      clearTimeout(timer);
    }
  }
}

/** A got sender; `allowPrivateTargets` lets webhooks reach loopback and private networks. */
export function createGotWebhookSender(options: GotWebhookSenderOptions): GotWebhookSender {
  return new GotWebhookSender(options);
}
