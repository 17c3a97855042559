import { expect } from 'chai';
import { parsePredicate } from '../../../core/chainhook-v1/parse-predicate.js';

/** A predicate as 1.x's documentation writes one, with `if_this` replaced by `scope`. */
function predicate(scope: object, extra: object = {}): Record<string, unknown> {
  return {
    chain: 'stacks',
    uuid: '1b4d3c4e-7f4a-4c1e-9a0e-2f1d9c7b5a11',
    name: 'Hello world',
    version: 1,
    networks: {
      testnet: {
        if_this: scope,
        then_that: { http_post: { url: 'http://localhost:3000/events', authorization_header: 'Bearer x' } },
        ...extra,
      },
    },
  };
}

function problemsOf(body: unknown): string[] {
  const read = parsePredicate(body);
  return read.ok ? [] : read.problems;
}

describe('parsePredicate', () => {
  it('reads a print_event predicate file of 1.x with its options', () => {
    const scope = { scope: 'print_event', contract_identifier: 'ST1.vault', contains: 'vault' };
    const read = parsePredicate(
      predicate(scope, {
        start_block: 34239,
        end_block: 50000,
        expire_after_occurrence: 1,
        decode_clarity_values: true,
      }),
    );
    expect(read.ok && read.predicate.networks.testnet).to.deep.include({
      if_this: scope,
      start_block: 34239,
      end_block: 50000,
      expire_after_occurrence: 1,
      decode_clarity_values: true,
    });
  });

  it('ignores fields 1.x does not know, as 1.x did', () => {
    const read = parsePredicate({ ...predicate({ scope: 'stx_event', actions: ['lock'] }), owner_uuid: 'x' });
    expect(read.ok && Object.keys(read.predicate)).to.deep.equal([
      'uuid',
      'name',
      'version',
      'chain',
      'networks',
    ]);
  });

  it('reads every block_height rule and refuses two at once', () => {
    for (const rule of [{ equals: 5 }, { higher_than: 5 }, { lower_than: 5 }, { between: [5, 9] }])
      expect(problemsOf(predicate({ scope: 'block_height', ...rule }))).to.deep.equal([]);
    expect(problemsOf(predicate({ scope: 'block_height', equals: 5, lower_than: 9 }))).to.deep.equal([
      'networks.testnet.if_this must have exactly one of equals, higher_than, lower_than, between',
    ]);
  });

  it('refuses a between whose low end is above its high end', () => {
    expect(problemsOf(predicate({ scope: 'block_height', between: [9, 5] }))[0]).to.match(
      /^networks\.testnet\.if_this\.between must be/,
    );
  });

  it('names an unknown scope', () => {
    expect(problemsOf(predicate({ scope: 'ordinals_protocol' }))[0]).to.match(
      /^networks\.testnet\.if_this\.scope must be one of/,
    );
  });

  it('names an unknown action of ft_event', () => {
    expect(
      problemsOf(predicate({ scope: 'ft_event', asset_identifier: 'ST1.t::t', actions: ['lock'] })),
    ).to.deep.equal(['networks.testnet.if_this.actions must be a non-empty list of mint, transfer, burn']);
  });

  it('accepts lock among the actions of stx_event', () => {
    expect(problemsOf(predicate({ scope: 'stx_event', actions: ['lock', 'transfer'] }))).to.deep.equal([]);
  });

  it('refuses a matches_regex that is not a regular expression, naming the field', () => {
    expect(
      problemsOf(
        predicate({ scope: 'print_event', contract_identifier: '*', matches_regex: '(unclosed' }),
      )[0],
    ).to.match(/^networks\.testnet\.if_this\.matches_regex is not a valid regular expression/);
  });

  it('refuses a print_event with both contains and matches_regex', () => {
    const scope = { scope: 'print_event', contract_identifier: '*', contains: 'a', matches_regex: 'a' };
    expect(problemsOf(predicate(scope))).to.deep.equal([
      'networks.testnet.if_this must have exactly one of contains, matches_regex',
    ]);
  });

  it('reads contract_deployment by deployer and by implement_trait', () => {
    expect(problemsOf(predicate({ scope: 'contract_deployment', deployer: '*' }))).to.deep.equal([]);
    expect(problemsOf(predicate({ scope: 'contract_deployment', implement_trait: 'sip10' }))).to.deep.equal(
      [],
    );
    expect(problemsOf(predicate({ scope: 'contract_deployment', implement_trait: 'sip11' }))).to.deep.equal([
      'networks.testnet.if_this.implement_trait must be one of sip09, sip10, *',
    ]);
  });

  it('refuses a txid that is not 0x and 64 hex digits', () => {
    expect(problemsOf(predicate({ scope: 'txid', equals: '0xabc' }))).to.deep.equal([
      'networks.testnet.if_this.equals must be a transaction id: 0x and 64 hex digits',
    ]);
  });

  it('refuses an http_post without an http URL or with a line break in its header', () => {
    const body = predicate({ scope: 'txid', equals: `0x${'a'.repeat(64)}` });
    (body.networks as { testnet: { then_that: unknown } }).testnet.then_that = {
      http_post: { url: 'ftp://x', authorization_header: 'a\r\nX-Evil: 1' },
    };
    expect(problemsOf(body)).to.deep.equal([
      'networks.testnet.then_that.http_post.url must be an http or https URL',
      'networks.testnet.then_that.http_post.authorization_header must be a string usable as a header value',
    ]);
  });

  it('refuses an end_block below the start_block', () => {
    expect(
      problemsOf(predicate({ scope: 'stx_event', actions: ['mint'] }, { start_block: 10, end_block: 9 })),
    ).to.deep.equal(['networks.testnet.end_block must not be below start_block']);
  });

  it('refuses a Bitcoin predicate and a network that is not Stacks', () => {
    const body: Record<string, unknown> = {
      ...predicate({ scope: 'stx_event', actions: ['mint'] }),
      chain: 'bitcoin',
    };
    (body.networks as Record<string, unknown>).regtest = {};
    expect(problemsOf(body)).to.deep.equal([
      'chain must be "stacks" (Bitcoin predicates are not served)',
      'networks.regtest is not a Stacks network (mainnet or testnet)',
    ]);
  });

  it('says what a predicate that is not an object is', () => {
    expect(problemsOf([])).to.deep.equal(['the predicate must be a JSON object']);
  });
});
