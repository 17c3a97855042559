import { expect } from 'chai';
import { Container } from 'inversify';
import 'reflect-metadata';
import { EVENT_FILTER_TYPES } from '../../../core/hooks/definition.js';
import { INPUT_VALIDATOR, type InputValidator } from '../../../core/ports/input-validator.js';
import { AjvInputValidator, createAjvInputValidator } from '../../../adapters/contract-ajv/index.js';
import {
  ADDRESS,
  ASSET,
  CONTRACT,
  FILTER_OF_EACH_TYPE,
  definitionWith,
  definitionWithFilter,
} from './examples.js';
import { expectFirstProblem, validationErrorOf } from './expect-invalid.js';

const validator = createAjvInputValidator();
const check = (value: unknown) => () => validator.check('definition', value);
const ALL_TYPES = EVENT_FILTER_TYPES.join(', ');

describe('AjvInputValidator', () => {
  it('is bound and resolved through an Inversify container', () => {
    const container = new Container();
    container.bind<InputValidator>(INPUT_VALIDATOR).to(AjvInputValidator);
    const resolved = container.get<InputValidator>(INPUT_VALIDATOR);
    expect(resolved.check('uuid', '1b4e28ba-2fa1-11d2-883f-0016d3cca427')).to.equal(
      '1b4e28ba-2fa1-11d2-883f-0016d3cca427',
    );
  });

  it('throws a plain Error for a schema name the contract does not have', () => {
    expect(() => validator.check('toString' as never, {})).to.throw(Error, 'no input schema named toString');
  });
});

describe("AjvInputValidator.check('definition')", () => {
  it('returns a valid definition unchanged', () => {
    const definition = definitionWith();
    expect(validator.check('definition', definition)).to.equal(definition);
  });

  it('covers every filter type of compat.md with its example', () => {
    expect(FILTER_OF_EACH_TYPE.map((f) => f.type)).to.deep.equal([...EVENT_FILTER_TYPES]);
  });

  for (const filter of FILTER_OF_EACH_TYPE) {
    it(`accepts a ${filter.type} filter with every narrowing field`, () => {
      expect(validator.check('definition', definitionWithFilter(filter))).to.be.an('object');
    });
  }

  it('accepts all 18 filter types in one definition', () => {
    expect(() =>
      validator.check('definition', definitionWith({ filters: { events: FILTER_OF_EACH_TYPE } })),
    ).not.to.throw();
  });

  it('accepts a tenure_change filter without a cause', () => {
    expect(() =>
      validator.check('definition', definitionWithFilter({ type: 'tenure_change' })),
    ).not.to.throw();
  });

  it('rejects a tenure_change cause other than block_found or extended', () => {
    expectFirstProblem(
      check(definitionWithFilter({ type: 'tenure_change', cause: 'extended_end' })),
      'filters.events[0].cause',
      'must be one of: block_found, extended',
    );
  });

  it('requires the principal of a balance_change filter', () => {
    expectFirstProblem(
      check(definitionWithFilter({ type: 'balance_change' })),
      'filters.events[0].principal',
      'is required',
    );
  });

  it('accepts options: null and omitted options', () => {
    expect(() => validator.check('definition', definitionWith({ options: null }))).not.to.throw();
    expect(() => validator.check('definition', definitionWith())).not.to.throw();
  });

  it('accepts every option of compat.md section 8', () => {
    const options = {
      decode_clarity_values: true,
      include_contract_abi: true,
      include_contract_source_code: false,
      include_post_conditions: true,
      include_raw_transactions: true,
      include_block_metadata: true,
      include_block_signatures: true,
      enable_on_registration: true,
      expire_after_evaluations: 1,
      expire_after_occurrences: 10,
    };
    expect(() => validator.check('definition', definitionWith({ options }))).not.to.throw();
  });

  describe('identifier patterns', () => {
    const cases: [string, Record<string, unknown>, string, string][] = [
      [
        'asset_identifier',
        { type: 'ft_event', asset_identifier: CONTRACT },
        'asset_identifier',
        'must match <address>.<contract>::<asset>',
      ],
      [
        'asset_identifier (lowercase address)',
        { type: 'nft_event', asset_identifier: ASSET.toLowerCase() },
        'asset_identifier',
        'must match <address>.<contract>::<asset>',
      ],
      [
        'contract_identifier',
        { type: 'contract_call', contract_identifier: ADDRESS },
        'contract_identifier',
        'must match <address>.<contract>',
      ],
      [
        'contract_identifier (name starts with a digit)',
        { type: 'contract_log', contract_identifier: `${ADDRESS}.1abc` },
        'contract_identifier',
        'must match <address>.<contract>',
      ],
      [
        'sender',
        { type: 'stx_transfer', sender: 'not-a-principal' },
        'sender',
        'must match <address> or <address>.<contract>',
      ],
      [
        'receiver (address with an O)',
        { type: 'ft_mint', receiver: `SO${ADDRESS.slice(2)}` },
        'receiver',
        'must match <address> or <address>.<contract>',
      ],
      [
        'principal (asset identifier)',
        { type: 'balance_change', principal: ASSET },
        'principal',
        'must match <address> or <address>.<contract>',
      ],
      [
        'sender (too short)',
        { type: 'contract_deploy', sender: 'SP123' },
        'sender',
        'must match <address> or <address>.<contract>',
      ],
    ];
    for (const [label, filter, field, message] of cases) {
      it(`rejects a bad ${label}, naming the field`, () => {
        expectFirstProblem(check(definitionWithFilter(filter)), `filters.events[0].${field}`, message);
      });
    }

    it('names the index of the filter that is wrong', () => {
      const events = [{ type: 'coinbase' }, { type: 'stx_event' }, { type: 'ft_burn', sender: 'x' }];
      expectFirstProblem(
        check(definitionWith({ filters: { events } })),
        'filters.events[2].sender',
        'must match <address> or <address>.<contract>',
      );
    });
  });

  describe('NFT value', () => {
    for (const value of [0, 123, 'u123', '"name"', '0x01', 'x'.repeat(4096)]) {
      it(`accepts ${JSON.stringify(value).slice(0, 20)}`, () => {
        expect(() =>
          validator.check('definition', definitionWithFilter({ type: 'nft_event', value })),
        ).not.to.throw();
      });
    }
    for (const value of [-1, 1.5, '', 'x'.repeat(4097), true, null, [1]]) {
      it(`rejects ${JSON.stringify(value).slice(0, 20)}`, () => {
        const details = expectFirstProblem(
          check(definitionWithFilter({ type: 'nft_mint', value })),
          'filters.events[0].value',
          'must be an integer >= 0 or a string of 1 to 4096 characters (a Clarity repr like u123, or 0x hex)',
        );
        expect(details).to.have.length(1);
      });
    }
  });

  describe('filter types', () => {
    it('lists the 18 types when a filter type is unknown', () => {
      expectFirstProblem(
        check(definitionWithFilter({ type: 'ft_transfers' })),
        'filters.events[0].type',
        `must be one of: ${ALL_TYPES}`,
      );
    });

    it('lists the 18 types when a filter type is not a string', () => {
      expectFirstProblem(
        check(definitionWithFilter({ type: 7 })),
        'filters.events[0].type',
        `must be one of: ${ALL_TYPES}`,
      );
    });

    it('says the type is required when a filter has none', () => {
      expectFirstProblem(
        check(definitionWithFilter({ asset_identifier: ASSET })),
        'filters.events[0].type',
        `is required, one of: ${ALL_TYPES}`,
      );
    });

    it("reports only the chosen type's problems, not one per other type", () => {
      const details = validationErrorOf(
        check(definitionWithFilter({ type: 'ft_mint', receiver: 'x', sender: ADDRESS })),
      ).details;
      expect(details).to.deep.equal([
        { field: 'filters.events[0].sender', message: 'is not allowed' },
        { field: 'filters.events[0].receiver', message: 'must match <address> or <address>.<contract>' },
      ]);
    });

    it('puts an unknown type first, ahead of deeper problems', () => {
      const events = [{ type: 'ft_event', asset_identifier: 'bad' }, { type: 'nope' }];
      const details = expectFirstProblem(
        check(definitionWith({ filters: { events } })),
        'filters.events[1].type',
        `must be one of: ${ALL_TYPES}`,
      );
      expect(details[1]).to.deep.equal({
        field: 'filters.events[0].asset_identifier',
        message: 'must match <address>.<contract>::<asset>',
      });
    });

    it('rejects a filter that is not an object', () => {
      expectFirstProblem(
        check(definitionWith({ filters: { events: ['coinbase'] } })),
        'filters.events[0]',
        'must be an object',
      );
    });
  });

  describe('unknown properties', () => {
    it('rejects one at the top level, naming it', () => {
      expectFirstProblem(check(definitionWith({ enabled: true })), 'enabled', 'is not allowed');
    });

    it('rejects one in options, naming it', () => {
      expectFirstProblem(check(definitionWith({ options: { foo: true } })), 'options.foo', 'is not allowed');
    });

    it('rejects one in a filter, naming it', () => {
      expectFirstProblem(
        check(definitionWithFilter({ type: 'coinbase', txid: '0x00' })),
        'filters.events[0].txid',
        'is not allowed',
      );
    });

    it('rejects one in filters, naming it', () => {
      expectFirstProblem(
        check(definitionWith({ filters: { events: [{ type: 'coinbase' }], scope: 'x' } })),
        'filters.scope',
        'is not allowed',
      );
    });

    it('rejects one in the action, naming it', () => {
      const action = { type: 'http_post', url: 'https://example.com', authorization_header: 'x' };
      expectFirstProblem(check(definitionWith({ action })), 'action.authorization_header', 'is not allowed');
    });

    it('quotes a property name that is not an identifier', () => {
      expectFirstProblem(
        check(definitionWith({ options: { 'a b': 1 } })),
        'options["a b"]',
        'is not allowed',
      );
    });
  });
});

describe("AjvInputValidator.check('definition-update')", () => {
  const update = (value: unknown) => () => validator.check('definition-update', value);

  it('accepts any one top-level field on its own', () => {
    const full = definitionWith({ options: { decode_clarity_values: true } });
    for (const [key, value] of Object.entries(full)) {
      expect(validator.check('definition-update', { [key]: value })).to.deep.equal({ [key]: value });
    }
  });

  it('accepts options: null, to clear the options', () => {
    expect(() => validator.check('definition-update', { options: null })).not.to.throw();
  });

  it('requires at least one field', () => {
    expectFirstProblem(
      update({}),
      'body',
      'must have at least one of: name, version, chain, network, filters, options, action',
    );
  });

  it('rejects an unknown field, naming it', () => {
    expectFirstProblem(update({ name: 'x', uuid: 'y' }), 'uuid', 'is not allowed');
  });

  it('checks a given field with the same schema as a definition', () => {
    expectFirstProblem(
      update({ filters: { events: [{ type: 'ft_event', asset_identifier: 'x' }] } }),
      'filters.events[0].asset_identifier',
      'must match <address>.<contract>::<asset>',
    );
    expectFirstProblem(update({ filters: { events: [] } }), 'filters.events', 'must have at least 1 item');
    expectFirstProblem(
      update({ options: { expire_after_evaluations: 0 } }),
      'options.expire_after_evaluations',
      'must be an integer >= 1',
    );
  });

  it('says a body that is not an object must be one', () => {
    expectFirstProblem(update([]), 'body', 'must be an object');
  });
});
