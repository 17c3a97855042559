import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { performance } from 'node:perf_hooks';
import type { SendResult, WebhookRequest, WebhookSender } from '../../core/ports/webhook-sender.js';
import {
  DEFAULT_MAX_BODY_BYTES,
  attemptSend,
  type Answer,
  type WebhookSenderOptions,
} from './send-attempt.js';
import { guardedLookup, systemLookup } from './target-resolution.js';

/**
 * Sends webhook POSTs with `node:http` and `node:https` over keep-alive connections, refusing
 * non-public targets. The same contract as the got sender (exact headers, no redirects followed,
 * no decompression, a timeout from the socket to the end of the answer, the answer's body read up
 * to a cap), at about a quarter of its CPU per request: the service's default sender, since a
 * sender's CPU is what bounds deliveries per second.
 */
export class HttpWebhookSender implements WebhookSender {
  private readonly agents: { http: http.Agent; https: https.Agent };
  private readonly lookup: LookupFunction;
  private readonly maxBodyBytes: number;

  constructor(private readonly options: WebhookSenderOptions) {
    const agentOptions = { keepAlive: true, maxSockets: options.maxSocketsPerOrigin ?? Infinity };
    this.agents = { http: new http.Agent(agentOptions), https: new https.Agent(agentOptions) };
    this.lookup = guardedLookup(options.lookup ?? systemLookup, options.allowPrivateTargets);
    this.maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  }

  /** POST the body with exactly the given headers; report the status or why none arrived. */
  send(request: WebhookRequest): Promise<SendResult> {
    return attemptSend(request, this.options.allowPrivateTargets, (url, req, clock) =>
      this.exchange(url, req, clock),
    );
  }

  /** Close the kept-alive connections (at shutdown). */
  close(): void {
    this.agents.http.destroy();
    this.agents.https.destroy();
  }

  /**
   * The answer once its body has ended (read up to the cap, the rest dropped with the connection).
   * The timeout runs from the moment the request has a socket until the body ends, as in the got
   * sender: a wait for a free connection is not the receiver's time, and a body that trickles
   * forever times out like no answer.
   */
  private exchange(url: URL, request: WebhookRequest, clock: { started: number }): Promise<Answer> {
    const secure = url.protocol === 'https:';
    const headers: Record<string, string> = { ...request.headers };
    if (!Object.keys(headers).some((name) => name.toLowerCase() === 'content-length')) {
      headers['content-length'] = String(Buffer.byteLength(request.body));
    }
    return new Promise<Answer>((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      let settled = false;
      const settle = (err: unknown, answer?: Answer) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        if (answer) resolve(answer);
        else reject(err);
      };
      const options = {
        method: 'POST',
        headers,
        agent: secure ? this.agents.https : this.agents.http,
        lookup: this.lookup,
      };
      const req = (secure ? https : http).request(url, options, (res) => {
        const answer = { status: res.statusCode ?? 0, retryAfter: res.headers['retry-after'] };
        let read = 0;
        res.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read < this.maxBodyBytes) return;
          settle(undefined, answer);
          req.destroy(); // the rest of the body goes with the connection
        });
        res.on('end', () => settle(undefined, answer));
        res.on('error', (err) => settle(err));
        res.on('close', () => {
          if (!res.complete) settle(Object.assign(new Error('connection reset'), { code: 'ECONNRESET' }));
        });
      });
      req.once('socket', () => {
        clock.started = performance.now();
        timer = setTimeout(() => {
          settle(new DOMException(`timeout after ${request.timeoutMs} ms`, 'TimeoutError'));
          req.destroy();
        }, request.timeoutMs);
      });
      // Also after settling: a late error on a dropped connection must not go unhandled.
      req.on('error', (err) => settle(err));
      req.end(request.body);
    });
  }
}

/** A `node:http` sender; `allowPrivateTargets` lets webhooks reach loopback and private networks. */
export function createHttpWebhookSender(options: WebhookSenderOptions): HttpWebhookSender {
  return new HttpWebhookSender(options);
}
