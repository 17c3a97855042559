import {
  BulkEnableChainhooksRequestSchema,
  ChainhookUuidParamSchema,
  EnableChainhookRequestSchema,
  EvaluateChainhookRequestSchema,
  StacksChainhookDefinitionSchema,
  UpdateChainhookRequestSchema,
} from '@hirosystems/chainhooks-client/schemas';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { expect } from 'chai';
import fc from 'fast-check';
import { createAjvInputValidator } from '../../../adapters/contract-ajv/index.js';
import type { InputName } from '../../../core/ports/input-validator.js';
import { ADDRESS, ASSET, UUID, definitionWith, definitionWithFilter } from './examples.js';
import { validationErrorOf } from './expect-invalid.js';

const validator = createAjvInputValidator();
const addFormats = addFormatsModule.default;
// The client's TypeBox schemas are plain JSON Schema (draft-07) with TypeBox's own symbol keys.
const clientAjv = addFormats(new Ajv({ strict: false }));
// The delivery log and backfills are ours alone: the client has no schema for them.
const CLIENT_SCHEMAS: Record<
  Exclude<InputName, 'list-query' | 'deliveries-query' | 'delivery-id' | 'backfill-request' | 'backfill-id'>,
  object
> = {
  definition: StacksChainhookDefinitionSchema,
  'definition-update': UpdateChainhookRequestSchema,
  enable: EnableChainhookRequestSchema,
  'bulk-enable': BulkEnableChainhooksRequestSchema,
  evaluate: EvaluateChainhookRequestSchema,
  uuid: ChainhookUuidParamSchema,
};
const clientAccepts = (name: keyof typeof CLIENT_SCHEMAS, value: unknown) =>
  clientAjv.validate(CLIENT_SCHEMAS[name], value);

const address = fc.stringMatching(/^[0123456789ABCDEFGHJKMNPQRSTVWXYZ]{28,41}$/);
const contractName = fc.stringMatching(/^[a-zA-Z][a-zA-Z0-9_-]{0,39}$/);
const contract = fc.tuple(address, contractName).map(([a, n]) => `${a}.${n}`);
const principal = fc.oneof(address, contract);
const asset = fc.tuple(contract, contractName).map(([c, n]) => `${c}::${n}`);
const optional = { requiredKeys: ['type'] as ['type'] };
const filter = fc.oneof(
  fc.record(
    { type: fc.constant('ft_transfer'), asset_identifier: asset, sender: principal, receiver: principal },
    optional,
  ),
  fc.record({ type: fc.constant('ft_mint'), asset_identifier: asset, receiver: principal }, optional),
  fc.record({ type: fc.constant('ft_burn'), asset_identifier: asset, sender: principal }, optional),
  fc.record({ type: fc.constant('ft_event'), asset_identifier: asset }, optional),
  fc.record(
    {
      type: fc.constant('nft_transfer'),
      asset_identifier: asset,
      value: fc.nat(),
      sender: principal,
      receiver: principal,
    },
    optional,
  ),
  fc.record(
    { type: fc.constant('nft_mint'), asset_identifier: asset, value: fc.nat(), receiver: principal },
    optional,
  ),
  fc.record(
    { type: fc.constant('nft_burn'), asset_identifier: asset, value: fc.nat(), sender: principal },
    optional,
  ),
  fc.record({ type: fc.constant('nft_event'), asset_identifier: asset, value: fc.nat() }, optional),
  fc.record({ type: fc.constant('stx_transfer'), sender: principal, receiver: principal }, optional),
  fc.record({ type: fc.constant('stx_mint'), receiver: principal }, optional),
  fc.record({ type: fc.constant('stx_burn'), sender: principal }, optional),
  fc.record({ type: fc.constant('stx_event') }),
  fc.record(
    { type: fc.constant('contract_deploy'), contract_identifier: contract, sender: principal },
    optional,
  ),
  fc.record(
    {
      type: fc.constant('contract_call'),
      contract_identifier: contract,
      function_name: fc.string({ maxLength: 128 }),
      sender: principal,
    },
    optional,
  ),
  fc.record(
    { type: fc.constant('contract_log'), contract_identifier: contract, sender: principal },
    optional,
  ),
  fc.record({ type: fc.constant('coinbase') }),
  // The client requires `cause`; stackhooks does not (see the loosenings below).
  fc.record({ type: fc.constant('tenure_change'), cause: fc.constantFrom('block_found', 'extended') }),
  fc.record({ type: fc.constant('balance_change'), principal }),
);
const options = fc.record(
  {
    decode_clarity_values: fc.boolean(),
    include_contract_abi: fc.boolean(),
    include_contract_source_code: fc.boolean(),
    include_post_conditions: fc.boolean(),
    include_raw_transactions: fc.boolean(),
    include_block_metadata: fc.boolean(),
    include_block_signatures: fc.boolean(),
    enable_on_registration: fc.boolean(),
    expire_after_evaluations: fc.integer({ min: 1 }),
    expire_after_occurrences: fc.integer({ min: 1 }),
  },
  { requiredKeys: [] },
);
const definition = fc.record(
  {
    name: fc.string({ maxLength: 256 }),
    version: fc.constant('1'),
    chain: fc.constant('stacks'),
    network: fc.constantFrom('mainnet', 'testnet'),
    filters: fc.record({ events: fc.array(filter, { minLength: 1, maxLength: 6 }) }),
    options: fc.option(options, { nil: null }),
    action: fc.record({
      type: fc.constant('http_post'),
      url: fc.webUrl({ validSchemes: ['http', 'https'], withQueryParameters: true, withFragments: true }),
    }),
  },
  { requiredKeys: ['name', 'version', 'chain', 'network', 'filters', 'action'] },
);

describe('the contract compared with the client package schemas', () => {
  it('accepts every definition the client schema accepts within compat.md', () => {
    fc.assert(
      fc.property(definition, (value) => {
        expect(clientAccepts('definition', value), 'client schema').to.equal(true);
        expect(() => validator.check('definition', value)).not.to.throw();
      }),
      { numRuns: 500 },
    );
  });

  it('accepts every update made of definition fields the client schema accepts', () => {
    fc.assert(
      fc.property(definition, fc.integer({ min: 1, max: 127 }), (value, mask) => {
        const update = Object.fromEntries(Object.entries(value).filter((_, i) => mask & (1 << i)));
        fc.pre(Object.keys(update).length > 0);
        expect(clientAccepts('definition-update', update), 'client schema').to.equal(true);
        expect(() => validator.check('definition-update', update)).not.to.throw();
      }),
      { numRuns: 300 },
    );
  });

  const HOOK = definitionWith();
  // Each deliberate tightening: the client package accepts the value, stackhooks answers 400.
  const tightenings: [string, keyof typeof CLIENT_SCHEMAS, unknown, string][] = [
    ['an unknown top-level field', 'definition', { ...HOOK, owner: 'x' }, 'owner'],
    [
      'an unknown field in filters',
      'definition',
      definitionWith({ filters: { events: [{ type: 'coinbase' }], x: 1 } }),
      'filters.x',
    ],
    [
      'an unknown field in a filter',
      'definition',
      definitionWithFilter({ type: 'coinbase', txid: '0x' }),
      'filters.events[0].txid',
    ],
    [
      'an unknown field in the action',
      'definition',
      definitionWith({ action: { ...HOOK.action, method: 'PUT' } }),
      'action.method',
    ],
    ['an empty filter list', 'definition', definitionWith({ filters: { events: [] } }), 'filters.events'],
    [
      '201 filters',
      'definition',
      definitionWith({ filters: { events: Array(201).fill({ type: 'coinbase' }) } }),
      'filters.events',
    ],
    ['a 257-character name', 'definition', definitionWith({ name: 'n'.repeat(257) }), 'name'],
    [
      'a 129-character function_name',
      'definition',
      definitionWithFilter({ type: 'contract_call', function_name: 'f'.repeat(129) }),
      'filters.events[0].function_name',
    ],
    [
      'a URL that is not http(s)',
      'definition',
      definitionWith({ action: { type: 'http_post', url: 'ftp://example.com/x' } }),
      'action.url',
    ],
    [
      'a URL longer than 2048 characters',
      'definition',
      definitionWith({ action: { type: 'http_post', url: `https://e.com/${'a'.repeat(2048)}` } }),
      'action.url',
    ],
    [
      'an expiry limit of 0',
      'definition',
      definitionWith({ options: { expire_after_evaluations: 0 } }),
      'options.expire_after_evaluations',
    ],
    [
      'a negative NFT value',
      'definition',
      definitionWithFilter({ type: 'nft_event', asset_identifier: ASSET, value: -1 }),
      'filters.events[0].value',
    ],
    ['an empty update', 'definition-update', {}, 'body'],
    ['an unknown field in an update', 'definition-update', { name: 'x', enabled: true }, 'enabled'],
    ['an unknown field beside enabled', 'enable', { enabled: true, force: true }, 'force'],
    [
      'an unknown field in a bulk request',
      'bulk-enable',
      { enabled: true, filters: { statuses: ['new'] }, dry_run: true },
      'dry_run',
    ],
    [
      'a bulk webhook_url longer than 2048 characters',
      'bulk-enable',
      { enabled: true, filters: { webhook_url: `https://e.com/${'a'.repeat(2048)}` } },
      'filters.webhook_url',
    ],
    [
      'an index_block_hash that is not 64 hex digits',
      'evaluate',
      { index_block_hash: 'abc' },
      'index_block_hash',
    ],
    ['a urn:uuid: prefix', 'uuid', `urn:uuid:${UUID}`, 'uuid'],
  ];
  for (const [label, name, value, field] of tightenings) {
    it(`rejects ${label}, which the client schema accepts`, () => {
      expect(clientAccepts(name, value), 'client schema').to.equal(true);
      expect(validationErrorOf(() => validator.check(name, value)).details.map((d) => d.field)).to.include(
        field,
      );
    });
  }

  // And the two places where compat.md allows more than the client's schema.
  const loosenings: [string, unknown][] = [
    [
      'an NFT value given as a Clarity repr string',
      definitionWithFilter({ type: 'nft_mint', value: 'u1', receiver: ADDRESS }),
    ],
    ['a tenure_change filter without a cause', definitionWithFilter({ type: 'tenure_change' })],
  ];
  for (const [label, value] of loosenings) {
    it(`accepts ${label}, which the client schema rejects`, () => {
      expect(clientAccepts('definition', value), 'client schema').to.equal(false);
      expect(() => validator.check('definition', value)).not.to.throw();
    });
  }
});
