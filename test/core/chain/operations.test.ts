import { expect } from 'chai';
import type { TransactionPayload } from '../../../core/chain/transaction-payload.js';
import { buildOperations, STX_CURRENCY, type OperationSource } from '../../../core/chain/operations.js';
import type { TransactionEvent } from '../../../core/chain/transaction-event.js';

const ALICE = 'SP2ZP4GJDZJ1FDHTQ963F0292PE9J9752TZJ68F21';
const BOB = 'SP3K8BC0PPEVCV7NZ6QSRWPQ2JE9E5B6N3PA0KBR9';
const SPONSOR = 'SPJW1XE278YMCEYMXB8ZFGJMH8ZVAAEDP2S2PJYG';
const TOKEN = `${BOB}.token::alex`;
const call: TransactionPayload = {
  type: 'contract_call',
  contract_identifier: `${BOB}.pool`,
  function_name: 'swap',
  args: [],
};
const value = { hex: '0x0101', repr: 'u1', type: 'uint' };

function source(overrides: Partial<OperationSource> = {}): OperationSource {
  return {
    status: 'success',
    sender: ALICE,
    sponsor: null,
    fee: '180',
    payload: call,
    abiJson: null,
    events: [],
    ...overrides,
  };
}

/** An event without its index and committed flag, of any type. */
type EventFields = TransactionEvent extends infer E
  ? E extends TransactionEvent
    ? Omit<E, 'event_index' | 'committed'>
    : never
  : never;

let index = 0;
function event(fields: EventFields, committed = true): TransactionEvent {
  return { ...fields, event_index: index++, committed };
}

describe('buildOperations', () => {
  it('orders the fee, the transaction operation, then the events, numbered from 0', () => {
    const ops = buildOperations(
      source({
        events: [event({ type: 'contract_log', contract_identifier: `${BOB}.pool`, topic: 'print', value })],
      }),
    );
    expect(ops.map((op) => [op.operation_identifier.index, op.type])).to.deep.equal([
      [0, 'fee'],
      [1, 'contract_call'],
      [2, 'contract_log'],
    ]);
  });

  it('charges the fee as a negative STX amount to the sender', () => {
    const [fee] = buildOperations(source());
    expect(fee).to.deep.equal({
      operation_identifier: { index: 0 },
      status: 'success',
      type: 'fee',
      account: { address: ALICE },
      amount: { value: '-180', currency: { symbol: 'STX', decimals: 6 } },
      metadata: { sponsored: false },
    });
  });

  it('charges the fee to the sponsor of a sponsored transaction', () => {
    const [fee] = buildOperations(source({ sponsor: SPONSOR }));
    expect(fee).to.deep.include({ account: { address: SPONSOR }, metadata: { sponsored: true } });
  });

  it('makes no fee operation for a fee of 0', () => {
    expect(buildOperations(source({ fee: '0' })).map((op) => op.type)).to.deep.equal(['contract_call']);
  });

  it('gives an STX transfer transaction no operation of its own: its transfer event says it', () => {
    const payload: TransactionPayload = { type: 'token_transfer', recipient: BOB, amount: '5', memo: '0x' };
    const ops = buildOperations(
      source({
        payload,
        events: [event({ type: 'stx_transfer', sender: ALICE, recipient: BOB, amount: '5', memo: '0x00' })],
      }),
    );
    expect(ops.map((op) => op.type)).to.deep.equal(['fee', 'token_transfer', 'token_transfer']);
  });

  it('makes a transfer a debit of the sender then a credit of the recipient, STX ones with the memo', () => {
    const ops = buildOperations(
      source({
        fee: '0',
        events: [event({ type: 'stx_transfer', sender: ALICE, recipient: BOB, amount: '5', memo: '0x00' })],
      }),
    );
    expect(ops.slice(1)).to.deep.equal([
      {
        operation_identifier: { index: 1 },
        status: 'success',
        type: 'token_transfer',
        account: { address: ALICE },
        amount: { value: '-5', currency: STX_CURRENCY },
        metadata: { memo: '0x00' },
      },
      {
        operation_identifier: { index: 2 },
        status: 'success',
        type: 'token_transfer',
        account: { address: BOB },
        amount: { value: '5', currency: STX_CURRENCY },
        metadata: { memo: '0x00' },
      },
    ]);
  });

  it('names an FT by its asset identifier with symbol "" and 0 decimals', () => {
    const ops = buildOperations(
      source({
        fee: '0',
        events: [
          event({ type: 'ft_transfer', asset_identifier: TOKEN, sender: ALICE, recipient: BOB, amount: '7' }),
        ],
      }),
    );
    expect(ops.slice(1).map((op) => 'amount' in op && op.amount)).to.deep.equal([
      {
        value: '-7',
        currency: { symbol: '', decimals: 0, metadata: { asset_identifier: TOKEN, token_type: 'ft' } },
      },
      {
        value: '7',
        currency: { symbol: '', decimals: 0, metadata: { asset_identifier: TOKEN, token_type: 'ft' } },
      },
    ]);
  });

  it('moves "1" of an NFT that carries the hex of its id', () => {
    const ops = buildOperations(
      source({
        fee: '0',
        events: [event({ type: 'nft_mint', asset_identifier: `${BOB}.punks::punk`, recipient: BOB, value })],
      }),
    );
    expect(ops[1]).to.deep.include({
      type: 'token_mint',
      account: { address: BOB },
      amount: {
        value: '1',
        currency: {
          symbol: '',
          decimals: 0,
          metadata: { asset_identifier: `${BOB}.punks::punk`, value: '0x0101', token_type: 'nft' },
        },
      },
    });
  });

  it('makes a mint a credit and a burn a debit', () => {
    const ops = buildOperations(
      source({
        fee: '0',
        events: [
          event({ type: 'stx_mint', recipient: BOB, amount: '9' }),
          event({ type: 'ft_burn', asset_identifier: TOKEN, sender: ALICE, amount: '3' }),
        ],
      }),
    );
    expect(
      ops
        .slice(1)
        .map((op) => [op.type, 'account' in op && op.account.address, 'amount' in op && op.amount.value]),
    ).to.deep.equal([
      ['token_mint', BOB, '9'],
      ['token_burn', ALICE, '-3'],
    ]);
  });

  it('makes an STX lock an stx_lock of the locked address naming the PoX contract', () => {
    const lock = event({
      type: 'stx_lock',
      locked_address: ALICE,
      locked_amount: '100',
      unlock_height: 900,
      contract_identifier: 'SP000000000000000000002Q6VF78.pox-4',
    });
    expect(buildOperations(source({ fee: '0', events: [lock] }))[1]).to.deep.include({
      type: 'stx_lock',
      account: { address: ALICE },
      amount: { value: '100', currency: STX_CURRENCY },
      metadata: { unlock_height: 900, locked_address: ALICE, contract_name: 'pox-4' },
    });
  });

  it('makes a print a contract_log with its contract, topic and decoded value', () => {
    const ops = buildOperations(
      source({
        fee: '0',
        events: [event({ type: 'contract_log', contract_identifier: `${BOB}.pool`, topic: 'print', value })],
      }),
    );
    expect(ops[1]).to.deep.equal({
      operation_identifier: { index: 1 },
      status: 'success',
      type: 'contract_log',
      metadata: { contract_identifier: `${BOB}.pool`, topic: 'print', value },
    });
  });

  it('makes no operation from an uncommitted event', () => {
    const ops = buildOperations(
      source({
        status: 'abort_by_response',
        events: [
          event({ type: 'stx_transfer', sender: ALICE, recipient: BOB, amount: '5', memo: null }, false),
        ],
      }),
    );
    expect(ops.map((op) => op.type)).to.deep.equal(['fee', 'contract_call']);
  });

  it("stamps every operation with the transaction's status", () => {
    const ops = buildOperations(
      source({
        status: 'abort_by_post_condition',
        events: [event({ type: 'stx_mint', recipient: BOB, amount: '1' })],
      }),
    );
    expect(ops.map((op) => op.status)).to.deep.equal([
      'abort_by_post_condition',
      'abort_by_post_condition',
      'abort_by_post_condition',
    ]);
  });

  it('carries a deploy with its source, Clarity version and ABI text', () => {
    const payload: TransactionPayload = {
      type: 'contract_deploy',
      contract_identifier: `${ALICE}.counter`,
      clarity_version: 2,
      source_code: '(begin)',
      abi: { functions: [] },
    };
    const [, deploy] = buildOperations(source({ payload, abiJson: '{"functions":[]}' }));
    expect(deploy).to.deep.include({
      type: 'contract_deploy',
      account: { address: ALICE },
      metadata: {
        contract_identifier: `${ALICE}.counter`,
        clarity_version: 2,
        source_code: '(begin)',
        abi: '{"functions":[]}',
      },
    });
  });
});
