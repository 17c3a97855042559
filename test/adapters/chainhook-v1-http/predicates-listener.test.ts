import { expect } from 'chai';
import { redactFields } from '../../../adapters/system/index.js';
import { RecordingLogger, startTestServer, type TestServer } from '../../support/api-server.js';

/** A 1.x predicate for the server's network (mainnet), as the 1.x client registers one. */
function predicate(uuid: string, scope: object = { scope: 'stx_event', actions: ['transfer'] }) {
  return {
    uuid,
    name: 'transfers',
    version: 1,
    chain: 'stacks',
    networks: {
      mainnet: {
        if_this: scope,
        then_that: {
          http_post: { url: 'http://127.0.0.1:3999/payload', authorization_header: 'Bearer secret' },
        },
      },
    },
  };
}

describe('the Chainhook 1.x predicates listener', () => {
  let t: TestServer;
  let base: string;

  before(async () => {
    t = await startTestServer({ STACKHOOKS_V1_PORT: '0' });
    base = `http://127.0.0.1:${t.server.v1Port}`;
  });
  after(() => t.stop());

  async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...headers },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  it('answers /ping as 1.x did', async () => {
    expect(await call('GET', '/ping')).to.deep.equal({
      status: 200,
      body: { status: 200, result: 'chainhook service up and running' },
    });
  });

  it('registers a predicate, lists it and reads it back in 1.x envelopes', async () => {
    expect((await call('POST', '/v1/chainhooks', predicate('p-one'))).body).to.deep.equal({
      status: 200,
      result: 'p-one',
    });
    const listed = await call('GET', '/v1/chainhooks');
    expect(listed.body.status).to.equal(200);
    const one = {
      chain: 'stacks',
      uuid: 'p-one',
      network: 'mainnet',
      predicate: { scope: 'stx_event', actions: ['transfer'] },
      status: { type: 'new' },
      enabled: true,
    };
    expect(listed.body.result).to.deep.include(one);
    expect(await call('GET', '/v1/chainhooks/p-one')).to.deep.equal({
      status: 200,
      body: { status: 200, result: one },
    });
  });

  it('answers 409 for a uuid in use', async () => {
    await call('POST', '/v1/chainhooks', predicate('p-twice'));
    expect(await call('POST', '/v1/chainhooks', predicate('p-twice'))).to.deep.equal({
      status: 409,
      body: { status: 409, error: 'Predicate uuid already in use' },
    });
  });

  it('answers 422 with the reason naming the field', async () => {
    const answer = await call(
      'POST',
      '/v1/chainhooks',
      predicate('p-bad', { scope: 'stx_event', actions: [] }),
    );
    expect(answer).to.deep.equal({
      status: 422,
      body: {
        status: 422,
        error: 'networks.mainnet.if_this.actions must be a non-empty list of mint, transfer, lock, burn',
      },
    });
  });

  it('refuses a predicate without a part for the network the service follows', async () => {
    const body = predicate('p-testnet') as { networks: Record<string, unknown> };
    body.networks = { testnet: body.networks.mainnet };
    const answer = await call('POST', '/v1/chainhooks', body);
    expect(answer.status).to.equal(422);
    expect(answer.body.error).to.equal('networks.mainnet is missing: this service follows mainnet');
  });

  it('answers 422 for a body that is not JSON', async () => {
    const response = await fetch(`${base}/v1/chainhooks`, { method: 'POST', body: '{"uuid":' });
    expect(response.status).to.equal(422);
    expect(((await response.json()) as { error: string }).error).to.match(/^the body is not JSON/);
  });

  it('deletes with content-type json and no body, then answers 404 for it', async () => {
    await call('POST', '/v1/chainhooks', predicate('p-gone'));
    expect(await call('DELETE', '/v1/chainhooks/stacks/p-gone')).to.deep.equal({
      status: 200,
      body: { status: 200, result: 'Ok' },
    });
    expect(await call('GET', '/v1/chainhooks/p-gone')).to.deep.equal({ status: 404, body: { status: 404 } });
  });

  it('keeps 1.x predicates out of the hooks API owners list', async () => {
    await call('POST', '/v1/chainhooks', predicate('p-apart'));
    const page = await t.client.getChainhooks();
    expect(page.results.map((hook) => hook.uuid)).to.not.include('p-apart');
  });
});

describe('the Chainhook 1.x predicates listener with a key', () => {
  let t: TestServer;
  let base: string;

  const logger = new RecordingLogger();

  before(async () => {
    t = await startTestServer({ STACKHOOKS_V1_PORT: '0', STACKHOOKS_V1_KEY: 'v1-key-0123456789' }, logger);
    base = `http://127.0.0.1:${t.server.v1Port}`;
  });
  after(() => t.stop());

  it('logs that its listener wants a key, in a field the log does not censor, never the key', () => {
    const line = logger.lines.find((l) => l.message === 'chainhook 1.x api listening')!;
    expect(redactFields(line.fields)).to.include({ key_required: true });
    expect(JSON.stringify(line.fields)).to.not.include('v1-key-0123456789');
  });

  it('answers /ping without the key and nothing else', async () => {
    expect((await fetch(`${base}/ping`)).status).to.equal(200);
    expect((await fetch(`${base}/v1/chainhooks`)).status).to.equal(401);
  });

  it('takes the key as a bearer token or as a path prefix the 1.x client can carry in its base URL', async () => {
    const bearer = await fetch(`${base}/v1/chainhooks`, {
      headers: { authorization: 'Bearer v1-key-0123456789' },
    });
    expect(bearer.status).to.equal(200);
    expect((await fetch(`${base}/key/v1-key-0123456789/v1/chainhooks`)).status).to.equal(200);
    expect((await fetch(`${base}/key/wrong/v1/chainhooks`)).status).to.equal(401);
  });

  it('says whether a refused request gave no key or a wrong one', async () => {
    const none = await fetch(`${base}/v1/chainhooks`);
    expect(((await none.json()) as { error: string }).error).to.include('a key is required');
    const wrong = await fetch(`${base}/v1/chainhooks`, { headers: { authorization: 'Bearer wrong' } });
    expect(((await wrong.json()) as { error: string }).error).to.include('not this listener');
  });
});
