import { expect } from 'chai';
import type { WebhookRequest } from '../../../core/ports/webhook-sender.js';
import { SENDERS, type ClosableSender } from './senders.js';
import { closedPort, startTarget, type LocalTarget } from './local-target.js';

for (const [name, create] of SENDERS) {
  describe(`${name} against local targets`, () => {
    let sender: ClosableSender;
    let target: LocalTarget | undefined;
    const post = (url: string, extra: Partial<WebhookRequest> = {}): WebhookRequest => ({
      url,
      headers: { 'content-type': 'application/json' },
      body: '{"chainhook":{}}',
      timeoutMs: 5000,
      ...extra,
    });

    beforeEach(() => {
      sender = create({ allowPrivateTargets: true });
    });
    afterEach(async () => {
      sender.close();
      await target?.close();
      target = undefined;
    });

    it('reports a 2xx as the status with no error', async () => {
      target = await startTarget((res) => res.writeHead(204).end());
      const result = await sender.send(post(target.url));
      expect(result).to.include({ status: 204, error: null, refusedTarget: false, retryAfterSeconds: null });
      expect(result.latencyMs).to.be.a('number').at.least(0);
    });

    it('reports a 500 as the status, not as an error', async () => {
      target = await startTarget((res) => res.writeHead(500).end('boom'));
      const result = await sender.send(post(target.url));
      expect(result).to.include({ status: 500, error: null, refusedTarget: false });
    });

    it('reports a closed port as "connection refused" with no status', async () => {
      const port = await closedPort();
      const result = await sender.send(post(`http://127.0.0.1:${port}/`));
      expect(result).to.include({ status: null, error: 'connection refused', refusedTarget: false });
    });

    it('times out a target that never answers after timeoutMs', async () => {
      target = await startTarget(() => undefined);
      const result = await sender.send(post(target.url, { timeoutMs: 300 }));
      expect(result).to.include({ status: null, error: 'timeout after 300 ms' });
      expect(result.latencyMs).to.be.within(250, 3000);
    });

    it('times out a target that answers 200 but trickles its body forever, reporting no status', async () => {
      const timers: NodeJS.Timeout[] = [];
      target = await startTarget((res) => {
        res.writeHead(200, { 'content-type': 'text/plain' });
        timers.push(setInterval(() => res.write('.'), 20));
      });
      try {
        const result = await sender.send(post(target.url, { timeoutMs: 300 }));
        expect(result).to.include({ status: null, error: 'timeout after 300 ms' });
      } finally {
        timers.forEach(clearInterval);
      }
    });

    it('stops reading an endless fast body at the cap and reports the status without waiting', async () => {
      const chunk = Buffer.alloc(16 * 1024, 'x');
      target = await startTarget((res) => {
        res.writeHead(200);
        const pump = () => {
          while (!res.destroyed && res.write(chunk));
          if (!res.destroyed) res.once('drain', pump);
        };
        pump();
      });
      const result = await sender.send(post(target.url, { timeoutMs: 10_000 }));
      expect(result).to.include({ status: 200, error: null });
      expect(result.latencyMs).to.be.below(5000);
    });

    it('reads Retry-After in seconds from a 429', async () => {
      target = await startTarget((res) => res.writeHead(429, { 'retry-after': '7' }).end());
      const result = await sender.send(post(target.url));
      expect(result).to.include({ status: 429, retryAfterSeconds: 7, error: null });
    });

    it('reads Retry-After given as an HTTP date as seconds from now', async () => {
      const at = new Date(Date.now() + 30_000).toUTCString();
      target = await startTarget((res) => res.writeHead(429, { 'retry-after': at }).end());
      const result = await sender.send(post(target.url));
      expect(result.status).to.equal(429);
      expect(result.retryAfterSeconds).to.be.within(28, 31);
    });

    it('reports a 503 with its Retry-After', async () => {
      target = await startTarget((res) => res.writeHead(503, { 'retry-after': '120' }).end());
      const result = await sender.send(post(target.url));
      expect(result).to.include({ status: 503, retryAfterSeconds: 120, error: null });
    });

    it('reports a 410 Gone as the status', async () => {
      target = await startTarget((res) => res.writeHead(410).end());
      const result = await sender.send(post(target.url));
      expect(result).to.include({ status: 410, error: null });
    });

    it('does not follow a redirect: the 3xx is the result and its location is never requested', async () => {
      target = await startTarget((res, req) => {
        if (req.url === '/hook') res.writeHead(302, { location: '/elsewhere' }).end();
        else res.writeHead(200).end();
      });
      const result = await sender.send(post(target.url));
      expect(result).to.include({ status: 302, error: null });
      expect(target.requests.map((r) => r.url)).to.deep.equal(['/hook']);
    });

    it('opens as many connections to one origin as requests are in flight: none waits for a socket', async () => {
      const held: (() => void)[] = [];
      target = await startTarget((res) => held.push(() => res.end('ok')));
      const sends = Array.from({ length: 80 }, (_, i) =>
        sender.send(post(target!.url, { body: `{"n":${i}}` })),
      );
      while (target.requests.length < 80) await new Promise((r) => setTimeout(r, 10));
      held.forEach((answer) => answer());
      const results = await Promise.all(sends);
      expect(results.every((r) => r.status === 200)).to.equal(true);
      expect(target.connections).to.equal(80);
    });

    it('starts the timeout when a request gets its socket, so waiting for one never times an attempt out', async () => {
      const limited = create({ allowPrivateTargets: true, maxSocketsPerOrigin: 1 });
      target = await startTarget((res) => setTimeout(() => res.end('ok'), 150));
      try {
        // Each waits for the one connection while the ones before it take 150 ms: up to 600 ms in all.
        const results = await Promise.all(
          Array.from({ length: 5 }, (_, i) =>
            limited.send(post(target!.url, { body: `{"n":${i}}`, timeoutMs: 400 })),
          ),
        );
        expect(results.map((r) => r.error)).to.deep.equal([null, null, null, null, null]);
        expect(results.every((r) => r.status === 200)).to.equal(true);
        // Each arrived once: no attempt was counted failed and sent again.
        expect(target.requests.map((r) => r.body).sort()).to.deep.equal(
          [0, 1, 2, 3, 4].map((n) => `{"n":${n}}`),
        );
        expect(target.connections).to.equal(1);
      } finally {
        limited.close();
      }
    });

    it('reuses one keep-alive connection for 20 sequential sends', async () => {
      target = await startTarget((res) => res.end('ok'));
      for (let i = 0; i < 20; i++) {
        const result = await sender.send(post(target.url, { body: `{"n":${i}}` }));
        expect(result.status).to.equal(200);
      }
      expect(target.requests).to.have.length(20);
      expect(target.connections).to.equal(1);
    });

    it('POSTs exactly the given headers and body', async () => {
      target = await startTarget();
      const headers = {
        'content-type': 'application/json',
        'user-agent': 'stackhooks/0.1.0',
        'webhook-id': 'payload-1',
        'webhook-timestamp': '1730000000',
        'webhook-signature': 'v1,abc=',
        authorization: 'Bearer 00ff',
      };
      const body = '{"chainhook":{"name":"héllo ✓"},"n":[1,2,3]}';
      await sender.send({ url: target.url, headers, body, timeoutMs: 5000 });
      const [seen] = target.requests;
      expect(seen.method).to.equal('POST');
      expect(seen.body).to.equal(body);
      const transport = ['host', 'content-length', 'connection'];
      const arrived = Object.fromEntries(
        Object.entries(seen.headers).filter(([k]) => !transport.includes(k)),
      );
      expect(arrived).to.deep.equal(headers);
      expect(seen.headers['content-length']).to.equal(String(Buffer.byteLength(body)));
    });

    it('adds no user-agent of its own when the request has none', async () => {
      target = await startTarget();
      await sender.send(post(target.url));
      expect(target.requests[0].headers).to.not.have.property('user-agent');
      expect(target.requests[0].headers).to.not.have.property('accept-encoding');
    });

    it('reports a host that does not resolve as a DNS failure naming it', async () => {
      const failing = create({
        allowPrivateTargets: true,
        lookup: async () => {
          throw Object.assign(new Error('getaddrinfo ENOTFOUND nowhere.test'), { code: 'ENOTFOUND' });
        },
      });
      try {
        const result = await failing.send(post('http://nowhere.test/hook'));
        expect(result).to.include({ status: null, error: 'DNS lookup failed for nowhere.test (ENOTFOUND)' });
        expect(result.refusedTarget).to.equal(false);
      } finally {
        failing.close();
      }
    });

    it('connects to the address its lookup gives for a name', async () => {
      target = await startTarget();
      const named = create({
        allowPrivateTargets: true,
        lookup: async () => [{ address: '127.0.0.1', family: 4 }],
      });
      try {
        const result = await named.send(post(`http://receiver.test:${target.port}/hook`));
        expect(result.status).to.equal(200);
        expect(target.requests[0].headers.host).to.equal(`receiver.test:${target.port}`);
      } finally {
        named.close();
      }
    });
  });
}
