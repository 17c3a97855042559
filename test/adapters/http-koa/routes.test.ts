import { expect } from 'chai';
import { sampleDefinition } from '../../support/definitions.js';
import { startTestServer, TEST_API_KEY, type TestServer } from '../../support/api-server.js';
import { send } from '../../support/raw-http.js';
import { HOOK_REPOSITORY, type HookRepository } from '../../../core/ports/hook-repository.js';

const key = TEST_API_KEY;

describe('routes, prefixes and response headers', () => {
  let t: TestServer;
  beforeEach(async () => {
    t = await startTestServer();
  });
  afterEach(async () => t.stop());

  for (const path of ['/chainhooks/v1', '/chainhooks/v1/', '/chainhooks', '/chainhooks/']) {
    it(`serves the status at ${path} without a key`, async () => {
      const res = await send(t.baseUrl, 'GET', path);
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.include({
        status: 'ready',
        chain_tip: null,
        archived_blocks: 0,
        outbox: { pending: 0, oldest_pending_created_at: null },
        conditions: [],
      });
      expect(res.body.server_version).to.match(/^\d+\.\d+\.\d+/);
    });
  }

  for (const path of ['/chainhooks/v1/me', '/chainhooks/v1/me/', '/chainhooks/me', '/chainhooks/me/']) {
    it(`serves the hook collection at ${path}`, async () => {
      const created = await send(t.baseUrl, 'POST', path, { key, body: JSON.stringify(sampleDefinition()) });
      expect(created.status).to.equal(200);
      const list = await send(t.baseUrl, 'GET', path, { key });
      expect(list.status).to.equal(200);
      expect(list.body.results.map((r: { uuid: string }) => r.uuid)).to.include(created.body.uuid);
    });
  }

  it('puts a request id on every response, keeping a sane one the caller sent', async () => {
    const generated = await send(t.baseUrl, 'GET', '/chainhooks/v1/me', {});
    expect(generated.status).to.equal(401);
    expect(generated.headers['x-request-id']).to.match(/^[0-9a-f-]{36}$/);
    const kept = await send(t.baseUrl, 'GET', '/chainhooks/v1', { headers: { 'x-request-id': 'trace-42' } });
    expect(kept.headers['x-request-id']).to.equal('trace-42');
  });

  it('answers a missing key with a 401 error body', async () => {
    const res = await send(t.baseUrl, 'GET', '/chainhooks/v1/me');
    expect(res.status).to.equal(401);
    expect(res.body).to.deep.include({ statusCode: 401, error: 'Unauthorized' });
    expect(res.body.message).to.include('x-api-key');
  });

  it('answers an unknown route with a JSON 404', async () => {
    const res = await send(t.baseUrl, 'GET', '/nowhere', {});
    expect(res.status).to.equal(404);
    expect(res.body).to.include({ statusCode: 404, error: 'Not Found' });
  });

  it('answers an unsupported method with a 405 and Allow', async () => {
    const res = await send(t.baseUrl, 'PUT', '/chainhooks/v1/me', { key, body: '{}' });
    expect(res.status).to.equal(405);
    expect(String(res.headers.allow)).to.include('GET');
  });

  it('says in the body of a 405 that the method is not allowed, and which are', async () => {
    const res = await send(t.baseUrl, 'PUT', '/chainhooks/v1/me/secret', { key, body: '{}' });
    expect(res.status).to.equal(405);
    expect(res.body).to.include({ statusCode: 405, error: 'Method Not Allowed' });
    expect(res.body.message).to.include('PUT').and.include('POST');
  });

  it('serves the OpenAPI document under both prefixes', async () => {
    for (const prefix of ['/chainhooks/v1', '/chainhooks']) {
      const res = await send(t.baseUrl, 'GET', `${prefix}/openapi.json`);
      expect(res.status).to.equal(200);
      expect(res.body.openapi).to.match(/^3\.1\./);
      expect(Object.keys(res.body.paths)).to.include('/me/{uuid}/evaluate');
    }
  });

  it('documents in the OpenAPI document exactly the routes the router serves', async () => {
    const { body: doc } = await send(t.baseUrl, 'GET', '/chainhooks/v1/openapi.json');
    const documented = Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(
      ([path, item]) =>
        Object.keys(item)
          .filter((m) => ['get', 'post', 'patch', 'delete', 'put'].includes(m))
          .map((m) => `${m.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`),
    );
    const served = t.server.stackhooks.router.stack
      .filter(
        (layer) =>
          (String(layer.path).startsWith('/chainhooks/v1') ||
            ['/health', '/ready'].includes(String(layer.path))) &&
          layer.methods.length > 0,
      )
      .flatMap((layer) =>
        layer.methods
          .filter((m) => m !== 'HEAD')
          .map((m) => `${m} ${String(layer.path).replace('/chainhooks/v1', '') || '/'}`),
      );
    expect([...new Set(served)].sort()).to.deep.equal([...new Set(documented)].sort());
  });

  it('narrows GET /me by name, status and enabled, counting the hooks that pass in total', async () => {
    for (const [name, enabled] of [
      ['sBTC transfers', true],
      ['pox', false],
      ['sbtc mints', false],
    ] as const) {
      const definition = sampleDefinition({ name, options: { enable_on_registration: enabled } });
      await send(t.baseUrl, 'POST', '/chainhooks/v1/me', { key, body: JSON.stringify(definition) });
    }
    const names = async (query: string) => {
      const res = await send(t.baseUrl, 'GET', `/chainhooks/v1/me?${query}`, { key });
      expect(res.status).to.equal(200);
      return [
        res.body.total,
        res.body.results.map((hook: { definition: { name: string } }) => hook.definition.name),
      ];
    };
    expect(await names('name=SBTC')).to.deep.equal([2, ['sBTC transfers', 'sbtc mints']]);
    expect(await names('name=sbtc&enabled=false')).to.deep.equal([1, ['sbtc mints']]);
    expect(await names('status=new&limit=1&offset=1')).to.deep.equal([3, ['pox']]);
    const bad = await send(t.baseUrl, 'GET', '/chainhooks/v1/me?status=paused', { key });
    expect(bad.status).to.equal(400);
    expect(bad.body.details[0].field).to.equal('status');
  });

  it('answers enabling an expired hook with a 409 that says how to fix it', async () => {
    const { body: hook } = await send(t.baseUrl, 'POST', '/chainhooks/me', {
      key,
      body: JSON.stringify(sampleDefinition({ options: { expire_after_evaluations: 1 } })),
    });
    // Expiry on live blocks arrives with matching; here the stored state is set directly.
    await t.server.stackhooks.container
      .get<HookRepository>(HOOK_REPOSITORY)
      .update('default', hook.uuid, (h) => ({
        ...h,
        status: { ...h.status, status: 'expired', enabled: false, evaluated_block_count: 1 },
      }));
    const res = await send(t.baseUrl, 'PATCH', `/chainhooks/me/${hook.uuid}/enabled`, {
      key,
      body: JSON.stringify({ enabled: true }),
    });
    expect(res.status).to.equal(409);
    expect(res.body.message).to.include(`PATCH /me/${hook.uuid}`);
    const bulk = await send(t.baseUrl, 'PATCH', '/chainhooks/me/enabled', {
      key,
      body: JSON.stringify({ enabled: true, filters: { statuses: ['expired'] } }),
    });
    expect(bulk.body.updated_uuids).to.deep.equal([]);
    const lifted = await send(t.baseUrl, 'PATCH', `/chainhooks/me/${hook.uuid}`, {
      key,
      body: JSON.stringify({ options: { expire_after_evaluations: 5 } }),
    });
    expect(lifted.body.status.status).to.equal('streaming');
    const enabled = await send(t.baseUrl, 'PATCH', `/chainhooks/me/${hook.uuid}/enabled`, {
      key,
      body: JSON.stringify({ enabled: true }),
    });
    expect(enabled.status).to.equal(204);
  });
});

describe('limits', () => {
  let t: TestServer;
  afterEach(async () => t.stop());

  it('answers requests over the per-key rate with a 429 and Retry-After', async () => {
    t = await startTestServer({ STACKHOOKS_RATE_LIMIT_PER_MINUTE: '5' });
    const statuses: number[] = [];
    let retryAfter: string | string[] | undefined;
    for (let i = 0; i < 7; i++) {
      const res = await send(t.baseUrl, 'GET', '/chainhooks/me', { key });
      statuses.push(res.status);
      if (res.status === 429) retryAfter = res.headers['retry-after'];
    }
    expect(statuses.slice(0, 5)).to.deep.equal([200, 200, 200, 200, 200]);
    expect(statuses.slice(5)).to.deep.equal([429, 429]);
    expect(Number(retryAfter)).to.be.within(1, 60);
  });

  it('answers a registration over the per-owner hook count with a 403 that names the limit', async () => {
    t = await startTestServer({ STACKHOOKS_MAX_HOOKS_PER_OWNER: '2' });
    for (let i = 0; i < 2; i++) {
      const ok = await send(t.baseUrl, 'POST', '/chainhooks/me', {
        key,
        body: JSON.stringify(sampleDefinition()),
      });
      expect(ok.status).to.equal(200);
    }
    const over = await send(t.baseUrl, 'POST', '/chainhooks/me', {
      key,
      body: JSON.stringify(sampleDefinition()),
    });
    expect(over.status).to.equal(403);
    expect(over.body.message).to.include('maximum of 2 hooks');
  });
});
