import http, { type ClientRequest } from 'node:http';
import https from 'node:https';
import { performance } from 'node:perf_hooks';
import got, { type Got, type PlainResponse, type Request } from 'got';
import type { SendResult, WebhookRequest, WebhookSender } from '../../core/ports/webhook-sender.js';
import { DEFAULT_MAX_BODY_BYTES, attemptSend, type WebhookSenderOptions } from './send-attempt.js';
import { guardedLookup, systemLookup } from './target-resolution.js';

/** How the got sender connects and what it lets through. */
export type GotWebhookSenderOptions = WebhookSenderOptions;

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
  send(request: WebhookRequest): Promise<SendResult> {
    return attemptSend(request, this.options.allowPrivateTargets, async (url, req, clock) => {
      const response = await this.exchange(url, req, clock);
      return { status: response.statusCode, retryAfter: response.headers['retry-after'] };
    });
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
