import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { expect } from 'chai';
import fc from 'fast-check';
import { sampleDefinition } from '../../support/definitions.js';
import { startTestServer, TEST_API_KEY, type TestServer } from '../../support/api-server.js';
import { send } from '../../support/raw-http.js';

const key = TEST_API_KEY;

/** One way to spoil a valid definition, and the field name the 400 message must mention. */
type Mutation = {
  describe: string;
  field: string;
  apply(def: Record<string, unknown>): void;
  validPatch?: boolean;
};

const wrongValues = fc.oneof(fc.integer(), fc.boolean(), fc.constant(null), fc.constant([]), fc.constant({}));

function setPath(target: Record<string, unknown>, path: (string | number)[], value: unknown): void {
  let node: any = target; // eslint-disable-line @typescript-eslint/no-explicit-any
  for (const step of path.slice(0, -1)) node = node[step];
  node[path[path.length - 1]] = value;
}

function deletePath(target: Record<string, unknown>, path: (string | number)[]): void {
  let node: any = target; // eslint-disable-line @typescript-eslint/no-explicit-any
  for (const step of path.slice(0, -1)) node = node[step];
  delete node[path[path.length - 1]];
}

const stringFields: (string | number)[][] = [
  ['name'],
  ['action', 'url'],
  ['filters', 'events', 0, 'asset_identifier'],
  ['network'],
  ['chain'],
  ['version'],
];
const requiredFields: (string | number)[][] = [
  ['name'],
  ['version'],
  ['chain'],
  ['network'],
  ['filters'],
  ['action'],
];

const mutations: fc.Arbitrary<Mutation> = fc.oneof(
  fc.tuple(fc.constantFrom(...stringFields), wrongValues).map(([path, value]) => ({
    describe: `${path.join('.')} = ${JSON.stringify(value)}`,
    field: String(path[path.length - 1]),
    apply: (def: Record<string, unknown>) => setPath(def, path, value),
  })),
  fc.constantFrom(...requiredFields).map((path) => ({
    describe: `without ${path.join('.')}`,
    field: String(path[path.length - 1]),
    // A PATCH sends only the fields it changes, so a missing field is no fault there.
    validPatch: true,
    apply: (def: Record<string, unknown>) => deletePath(def, path),
  })),
  fc
    .tuple(
      fc.constantFrom<(string | number)[]>(
        [],
        ['options'],
        ['action'],
        ['filters'],
        ['filters', 'events', 0],
      ),
      fc.stringMatching(/^[a-z_]{1,20}$/),
    )
    .map(([path, extra]) => ({
      describe: `extra ${[...path, `x_${extra}`].join('.')}`,
      field: `x_${extra}`,
      apply: (def: Record<string, unknown>) => setPath(def, [...path, `x_${extra}`], 1),
    })),
  fc.constantFrom(...stringFields).map((path) => ({
    describe: `huge ${path.join('.')}`,
    field: String(path[path.length - 1]),
    apply: (def: Record<string, unknown>) => setPath(def, path, 'x'.repeat(100_000)),
  })),
  fc
    .tuple(
      fc.constantFrom<(string | number)[]>(['filters', 'events', 0, 'asset_identifier'], ['action', 'url']),
      fc.string({ maxLength: 30 }),
    )
    .map(([path, junk]) => ({
      describe: `bad pattern ${path.join('.')} = ${JSON.stringify(junk)}`,
      field: String(path[path.length - 1]),
      apply: (def: Record<string, unknown>) => setPath(def, path, `not valid ${junk}`),
    })),
  fc.constant({
    describe: 'wrong network',
    field: 'network',
    apply: (def: Record<string, unknown>) => setPath(def, ['network'], 'testnet'),
  }),
  fc.constant({
    describe: 'no filters',
    field: 'events',
    apply: (def: Record<string, unknown>) => setPath(def, ['filters', 'events'], []),
  }),
  fc.constant({
    describe: 'unknown filter type',
    field: 'type',
    apply: (def: Record<string, unknown>) => setPath(def, ['filters', 'events', 0, 'type'], 'ft_teleport'),
  }),
);

describe('bad input to the API', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
  });
  after(async () => t.stop());

  // A valid hook of the test's owner, for the routes under /me/{uuid}.
  async function registerSample(): Promise<{ uuid: string }> {
    const res = await send(t.baseUrl, 'POST', '/chainhooks/me', {
      key,
      body: JSON.stringify(sampleDefinition()),
    });
    return res.body as { uuid: string };
  }

  it('answers every mutated definition with a 400 naming the field, and stores nothing', async () => {
    const { body: seeded } = await send(t.baseUrl, 'POST', '/chainhooks/v1/me', {
      key,
      body: JSON.stringify(sampleDefinition()),
    });
    const fileBefore = await readFile(join(t.dataDir, 'stackhooks.json'), 'utf8');
    await fc.assert(
      fc.asyncProperty(mutations, async (mutation) => {
        const definition = structuredClone(sampleDefinition()) as unknown as Record<string, unknown>;
        mutation.apply(definition);
        const res = await send(t.baseUrl, 'POST', '/chainhooks/me', {
          key,
          body: JSON.stringify(definition),
        });
        expect(res.status, `${mutation.describe}: ${JSON.stringify(res.body)}`).to.equal(400);
        expect(res.body.statusCode).to.equal(400);
        expect(res.body.error).to.equal('Bad Request');
        expect(res.body.message, mutation.describe).to.include(mutation.field);
        expect(res.body.details).to.be.an('array').with.length.greaterThan(0);
        if (mutation.validPatch) return;
        // The same spoiled value as a PATCH is refused the same way.
        const patch = await send(t.baseUrl, 'PATCH', `/chainhooks/me/${seeded.uuid}`, {
          key,
          body: JSON.stringify(definition),
        });
        expect(patch.status, `PATCH ${mutation.describe}`).to.equal(400);
      }),
      { numRuns: 150 },
    );
    const list = await send(t.baseUrl, 'GET', '/chainhooks/me', { key });
    expect(list.body.total).to.equal(1);
    expect(list.body.results[0]).to.deep.equal(seeded);
    expect(await readFile(join(t.dataDir, 'stackhooks.json'), 'utf8')).to.equal(fileBefore);
  });

  it('answers malformed JSON with a 400', async () => {
    const res = await send(t.baseUrl, 'POST', '/chainhooks/me', { key, body: '{"name": ' });
    expect(res.status).to.equal(400);
    expect(res.body.message).to.match(/JSON/);
  });

  it('answers a body that is not JSON with a 415', async () => {
    const res = await send(t.baseUrl, 'POST', '/chainhooks/me', {
      key,
      body: 'name=x',
      contentType: 'application/x-www-form-urlencoded',
    });
    expect(res.status).to.equal(415);
    expect(res.body.error).to.equal('Unsupported Media Type');
  });

  it('answers a compressed body that does not decompress with a 400 naming the encoding', async () => {
    for (const encoding of ['gzip', 'deflate', 'br']) {
      const res = await send(t.baseUrl, 'POST', '/chainhooks/me', {
        key,
        body: '{}',
        headers: { 'content-encoding': encoding },
      });
      expect(res.status, encoding).to.equal(400);
      expect(res.body.message).to.include(`content-encoding ${encoding}`);
    }
    const truncated = gzipSync(JSON.stringify(sampleDefinition())).subarray(0, 20);
    const res = await send(t.baseUrl, 'POST', '/chainhooks/me', {
      key,
      body: truncated,
      headers: { 'content-encoding': 'gzip' },
    });
    expect(res.status).to.equal(400);
    expect(res.body.message).to.include('could not be decompressed');
  });

  it('takes a gzip body and refuses an encoding it does not know with a 415 naming it', async () => {
    const registered = await send(t.baseUrl, 'POST', '/chainhooks/me', {
      key,
      body: gzipSync(JSON.stringify(sampleDefinition())),
      headers: { 'content-encoding': 'gzip' },
    });
    expect(registered.status).to.equal(200);
    const refused = await send(t.baseUrl, 'POST', '/chainhooks/me', {
      key,
      body: '{}',
      headers: { 'content-encoding': 'foo' },
    });
    expect(refused.status).to.equal(415);
    expect(refused.body.message).to.include('content-encoding foo');
  });

  it('answers a height past the largest exact integer with a 400 naming the field', async () => {
    const hook = await registerSample();
    const backfill = await send(t.baseUrl, 'POST', `/chainhooks/me/${hook.uuid}/backfills`, {
      key,
      body: '{"from_block_height": 0, "to_block_height": 1e300}',
    });
    expect(backfill.status).to.equal(400);
    expect(backfill.body.message).to.include('to_block_height');
    const evaluate = await send(t.baseUrl, 'POST', `/chainhooks/me/${hook.uuid}/evaluate`, {
      key,
      body: '{"block_height": 1e300}',
    });
    expect(evaluate.status).to.equal(400);
    expect(evaluate.body.message).to.include('block_height');
    const expiring = { ...sampleDefinition(), options: { expire_after_occurrences: 1e300 } };
    const registered = await send(t.baseUrl, 'POST', '/chainhooks/me', {
      key,
      body: JSON.stringify(expiring),
    });
    expect(registered.status).to.equal(400);
    expect(registered.body.message).to.include('expire_after_occurrences');
  });

  it('answers a field sent to a route that takes no body with a 400 naming it', async () => {
    const res = await send(t.baseUrl, 'POST', '/chainhooks/me/secret', { key, body: '{"x": 1}' });
    expect(res.status).to.equal(400);
    expect(res.body.message).to.include('x is not a field');
    const empty = await send(t.baseUrl, 'POST', '/chainhooks/me/secret', { key, body: '{}' });
    expect(empty.status).to.equal(200);
  });

  it('answers a body over 1 MB with a 413', async () => {
    const huge = JSON.stringify({ ...sampleDefinition(), name: 'x'.repeat(1_100_000) });
    const res = await send(t.baseUrl, 'POST', '/chainhooks/me', { key, body: huge });
    expect(res.status).to.equal(413);
    expect(res.body.message).to.include('1 MB');
  });

  it('answers a JSON body that is not an object with a 400 naming the body', async () => {
    const res = await send(t.baseUrl, 'POST', '/chainhooks/me', { key, body: '[1,2]' });
    expect(res.status).to.equal(400);
    expect(res.body.message).to.match(/body/);
  });

  for (const bad of ['not-a-uuid', '123', 'zzzzzzzz-zzzz-zzzz-zzzz-zzzzzzzzzzzz']) {
    it(`answers the malformed uuid "${bad}" with a 400 naming the uuid`, async () => {
      const res = await send(t.baseUrl, 'GET', `/chainhooks/me/${bad}`, { key });
      expect(res.status).to.equal(400);
      expect(res.body.message).to.match(/uuid/);
    });
  }

  for (const [query, field] of [
    ['limit=0', 'limit'],
    ['limit=61', 'limit'],
    ['limit=abc', 'limit'],
    ['limit=1.5', 'limit'],
    ['offset=-1', 'offset'],
    ['offset=x', 'offset'],
    ['limit=1&limit=2', 'limit'],
    ['limit=1e1', 'limit'],
    ['offset=0x10', 'offset'],
    ['offset=%20', 'offset'],
  ]) {
    it(`answers the pagination "${query}" with a 400 naming ${field}`, async () => {
      const res = await send(t.baseUrl, 'GET', `/chainhooks/me?${query}`, { key });
      expect(res.status).to.equal(400);
      expect(res.body.message).to.include(field);
    });
  }

  it('answers enable without a boolean with a 400 naming enabled', async () => {
    const hook = await registerSample();
    const res = await send(t.baseUrl, 'PATCH', `/chainhooks/me/${hook.uuid}/enabled`, {
      key,
      body: JSON.stringify({ enabled: 'yes' }),
    });
    expect(res.status).to.equal(400);
    expect(res.body.message).to.include('enabled');
  });

  it('answers a bulk enable of more than 200 uuids with a 400 naming uuids', async () => {
    const uuids = Array.from(
      { length: 201 },
      (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    );
    const res = await send(t.baseUrl, 'PATCH', '/chainhooks/me/enabled', {
      key,
      body: JSON.stringify({ enabled: true, filters: { uuids } }),
    });
    expect(res.status).to.equal(400);
    expect(res.body.message).to.include('uuids');
  });

  it('answers an evaluate body with neither height nor hash with a 400', async () => {
    const hook = await registerSample();
    const res = await send(t.baseUrl, 'POST', `/chainhooks/me/${hook.uuid}/evaluate`, { key, body: '{}' });
    expect(res.status).to.equal(400);
  });

  it('keeps serving after a run of bad requests', async () => {
    const res = await send(t.baseUrl, 'GET', '/chainhooks/v1/', {});
    expect(res.status).to.equal(200);
  });
});
