import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { expect } from 'chai';
import { buildOpenApiDocument } from '../../spec/openapi/document.js';
import { openApiDocument } from '../../spec/index.js';
import { ASSET, UUID, definitionWith } from '../adapters/contract-ajv/examples.js';

type JsonObject = Record<string, unknown>;
const addFormats = addFormatsModule.default;
const doc = openApiDocument as unknown as JsonObject & {
  paths: Record<string, Record<string, JsonObject>>;
  components: { schemas: Record<string, unknown>; parameters: Record<string, JsonObject> };
  servers: { url: string }[];
};
const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];

/** Every route of compat.md section 2 (and the two public ones), with the success status it documents. */
const ROUTES: [string, string, string][] = [
  ['get', '/health', '200'],
  ['get', '/ready', '200'],
  ['get', '/', '200'],
  ['get', '/openapi.json', '200'],
  ['post', '/me', '200'],
  ['get', '/me', '200'],
  ['get', '/me/{uuid}', '200'],
  ['patch', '/me/{uuid}', '200'],
  ['delete', '/me/{uuid}', '204'],
  ['patch', '/me/{uuid}/enabled', '204'],
  ['patch', '/me/enabled', '200'],
  ['post', '/me/{uuid}/evaluate', '204'],
  ['post', '/me/secret', '200'],
  ['get', '/me/secret', '200'],
  ['delete', '/me/secret', '204'],
  ['get', '/me/{uuid}/deliveries', '200'],
  ['post', '/me/{uuid}/deliveries/{id}/redeliver', '200'],
  ['post', '/me/{uuid}/backfills', '202'],
  ['get', '/me/{uuid}/backfills', '200'],
  ['get', '/me/{uuid}/backfills/{id}', '200'],
  ['delete', '/me/{uuid}/backfills/{id}', '200'],
];

function operations(): [string, string, JsonObject][] {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => HTTP_METHODS.includes(method))
      .map(([method, op]) => [method, path, op] as [string, string, JsonObject]),
  );
}

function collectRefs(node: unknown, refs: string[] = []): string[] {
  if (Array.isArray(node)) node.forEach((item) => collectRefs(item, refs));
  else if (typeof node === 'object' && node !== null) {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') refs.push(value);
      else collectRefs(value, refs);
    }
  }
  return refs;
}

function resolve(ref: string): unknown {
  return ref
    .slice(2)
    .split('/')
    .map((key) => decodeURIComponent(key).replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<unknown>((node, key) => (node as JsonObject | undefined)?.[key], doc);
}

function componentAjv() {
  const ajv = new Ajv2020({ strict: true, allowUnionTypes: true, discriminator: true, allErrors: true });
  addFormats(ajv);
  ajv.addKeyword({ keyword: 'x-message', schemaType: 'string' });
  // The document itself as the root schema, so `#/components/schemas/...` resolves as written.
  ajv.addKeyword({ keyword: 'components' });
  ajv.addSchema({ $id: 'https://stackhooks.invalid/openapi.json', components: doc.components });
  return (pointer: string) => ajv.compile({ $ref: `https://stackhooks.invalid/openapi.json${pointer}` });
}

describe('spec/openapi.json', () => {
  it('is an OpenAPI 3.1 document', () => {
    expect(doc.openapi).to.match(/^3\.1\.\d+$/);
  });

  it('is what spec/openapi/generate.ts builds from the schemas (regenerate it when this fails)', () => {
    expect(doc).to.deep.equal(buildOpenApiDocument());
  });

  it('serves both prefixes, the documented one first', () => {
    expect(doc.servers.map((s) => s.url)).to.deep.equal(['/chainhooks/v1', '/chainhooks']);
  });

  it('serves the probes at the root, outside the prefixes, and documents /ready answering 503', () => {
    for (const path of ['/health', '/ready']) {
      expect((doc.paths[path].servers as unknown as { url: string }[]).map((s) => s.url)).to.deep.equal([
        '/',
      ]);
    }
    expect(doc.paths['/ready'].get.responses).to.have.property('503');
  });

  for (const [method, path, status] of ROUTES) {
    it(`documents ${method.toUpperCase()} ${path} answering ${status}`, () => {
      const operation = doc.paths[path]?.[method];
      expect(operation, `${method} ${path}`).to.be.an('object');
      expect(operation.responses).to.have.property(status);
    });
  }

  it('documents no route beyond those', () => {
    expect(operations().map(([m, p]) => `${m} ${p}`)).to.have.members(ROUTES.map(([m, p]) => `${m} ${p}`));
  });

  it('needs the x-api-key on every /me route and on nothing else', () => {
    expect(doc.components).to.have.nested.property('securitySchemes.apiKey').that.deep.equals({
      type: 'apiKey',
      in: 'header',
      name: 'x-api-key',
      description: 'The key of the owner; `/me` is that owner.',
    });
    for (const [method, path, op] of operations()) {
      const expected = path.startsWith('/me') ? [{ apiKey: [] }] : [];
      expect(op.security, `${method} ${path}`).to.deep.equal(expected);
    }
  });

  it('gives every /me route the 401, 429 and 500 errors, and 429 a Retry-After header', () => {
    for (const [method, path, op] of operations().filter(([, p]) => p.startsWith('/me'))) {
      expect(op.responses, `${method} ${path}`).to.include.keys('401', '429', '500');
    }
    expect(resolve('#/components/responses/TooManyRequests')).to.have.nested.property('headers.Retry-After');
  });

  it('gives every route with a body the 400, 413 and 415 errors', () => {
    for (const [method, path, op] of operations().filter(([, , o]) => 'requestBody' in o)) {
      expect(op.responses, `${method} ${path}`).to.include.keys('400', '413', '415');
    }
  });

  it('documents the 403 hook limit on registration and the 409 conflict on enabling', () => {
    expect(doc.paths['/me'].post.responses).to.have.property('403');
    expect(doc.paths['/me/{uuid}/enabled'].patch.responses).to.have.property('409');
  });

  it('answers every error with the error body, except /ready, whose 503 tells why in a readiness body', () => {
    for (const [method, path, op] of operations()) {
      for (const [status, response] of Object.entries(op.responses as JsonObject)) {
        if (Number(status) < 400) continue;
        if (path === '/ready' && status === '503') {
          expect(response).to.have.nested.property(
            'content.application/json.schema.$ref',
            '#/components/schemas/Readiness',
          );
          continue;
        }
        const resolved = resolve((response as { $ref: string }).$ref);
        expect(resolved, `${method} ${path} ${status}`).to.have.nested.property(
          'content.application/json.schema.$ref',
          '#/components/schemas/ErrorBody',
        );
      }
    }
  });

  it('uses unique operation ids', () => {
    const ids = operations().map(([, , op]) => op.operationId);
    expect(new Set(ids).size).to.equal(ids.length);
  });

  it('resolves every $ref inside the document', () => {
    const refs = collectRefs(doc);
    expect(refs.length).to.be.above(50);
    for (const ref of refs) {
      expect(ref, ref).to.match(/^#\//);
      expect(resolve(ref), ref).not.to.equal(undefined);
    }
  });

  it('has component schemas that ajv compiles, every one of them', () => {
    const compile = componentAjv();
    for (const name of Object.keys(doc.components.schemas)) {
      expect(() => compile(`#/components/schemas/${name}`), name).not.to.throw();
    }
    for (const [name, param] of Object.entries(doc.components.parameters)) {
      expect(() => compile(`#${(param.schema as { $ref: string }).$ref.slice(1)}`), name).not.to.throw();
    }
  });

  it('documents the list filters of GET /me as optional query parameters, as the official client needs', () => {
    const params = (doc.paths['/me'].get.parameters as { $ref: string }[]).map(
      ({ $ref }) => resolve($ref) as { name: string; in: string; required: boolean },
    );
    expect(params.map((p) => [p.name, p.in, p.required])).to.deep.equal(
      ['offset', 'limit', 'name', 'status', 'enabled'].map((name) => [name, 'query', false]),
    );
  });

  it('validates a definition and a hook record with its component schemas as the validator does', () => {
    const compile = componentAjv();
    const definition = compile('#/components/schemas/HookDefinition');
    expect(definition(definitionWith())).to.equal(true);
    expect(
      definition(
        definitionWith({ filters: { events: [{ type: 'ft_event', asset_identifier: `${ASSET}x!` }] } }),
      ),
    ).to.equal(false);
    const record = {
      uuid: UUID,
      definition: definitionWith(),
      status: {
        status: 'new',
        enabled: false,
        created_at: 1_700_000_000,
        last_evaluated_at: null,
        last_evaluated_block_height: null,
        last_occurrence_at: null,
        last_occurrence_block_height: null,
        evaluated_block_count: 0,
        occurrence_count: 0,
      },
    };
    expect(compile('#/components/schemas/HookRecord')(record)).to.equal(true);
    const circuit = { origin: 'https://example.com', state: 'open', failures: 3, open_until: 1_700_000_030 };
    const slow = { ...record, delivery: { receiver: { lane: 'slow', circuit } } };
    expect(compile('#/components/schemas/HookRecord')(slow)).to.equal(true);
    const bad = { ...record, delivery: { receiver: { lane: 'fast', circuit } } };
    expect(compile('#/components/schemas/HookRecord')(bad)).to.equal(false);
    expect(
      compile('#/components/schemas/HookList')({ limit: 20, offset: 0, total: 1, results: [record] }),
    ).to.equal(true);
    expect(
      compile('#/components/schemas/ErrorBody')({
        statusCode: 400,
        error: 'Bad Request',
        message: 'x',
        details: [{ field: 'name', message: 'is required' }],
      }),
    ).to.equal(true);
  });

  it('names each filter component after its type, so the discriminator maps implicitly', () => {
    const eventFilter = doc.components.schemas.EventFilter as { oneOf: { $ref: string }[] };
    for (const { $ref } of eventFilter.oneOf) {
      const name = $ref.split('/').pop()!;
      expect(resolve($ref)).to.have.nested.property('properties.type.const', name);
    }
  });
});
