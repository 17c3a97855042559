// Arbitrary normalized transactions whose payload, events, operations and metadata agree.
import { Cl } from '@stacks/transactions';
import fc from 'fast-check';
import type {
  ContractCallArg,
  TenureChangeCause,
  TransactionPayload,
  TransactionStatus,
} from '../../../core/chain/transaction-payload.js';
import type { NormalizedTransaction } from '../../../core/chain/block.js';
import { buildOperations } from '../../../core/chain/operations.js';
import type { TransactionEvent } from '../../../core/chain/transaction-event.js';
import {
  arbitraryAmount,
  arbitraryContractIdentifier,
  arbitraryHex,
  arbitraryPrincipal,
  arbitraryStandardPrincipal,
} from './identifiers.js';
import { HARNESS_POOL, reprOf } from './pool.js';
import { arbitraryTransactionEvent } from './transaction-event.js';

/** Options of arbitraryTransaction. */
export type TransactionOptions = {
  /** `metadata.position.index`; 0 by default (arbitraryBlock sets each transaction's). */
  index?: number;
  /** The most events a contract call emits; 4 by default. */
  maxEvents?: number;
};

const CAUSES: readonly TenureChangeCause[] = [
  'block_found',
  'extended',
  'extended_runtime',
  'extended_read_count',
  'extended_read_length',
  'extended_write_count',
  'extended_write_length',
];

const ZERO_COST = { read_count: 0, read_length: 0, runtime: 0, write_count: 0, write_length: 0 };

/** A payload and the events it emits, once the sender is known (a deploy's identifier and a transfer's sender are the sender's). */
type Draft = {
  payload: (sender: string) => TransactionPayload;
  events: (sender: string) => TransactionEvent[];
};

const argument: fc.Arbitrary<ContractCallArg> = fc
  .oneof(
    fc.bigInt({ min: 0n, max: 10n ** 12n }).map((n) => Cl.uint(n)),
    arbitraryStandardPrincipal().map((p) => Cl.standardPrincipal(p)),
    fc.boolean().map((b) => Cl.bool(b)),
  )
  .map((cv) => {
    const { hex, repr, type } = reprOf(cv);
    return { hex, repr, name: '', type };
  });

function drafts(maxEvents: number): Record<TransactionPayload['type'], fc.Arbitrary<Draft>> {
  const events = (max: number) =>
    fc.array(arbitraryTransactionEvent({ committed: true }), { maxLength: max });
  return {
    token_transfer: fc
      .record({ recipient: arbitraryPrincipal(), amount: arbitraryAmount(), memo: arbitraryHex(34) })
      .map((p) => ({
        payload: () => ({ type: 'token_transfer', ...p }),
        events: (sender) => [
          {
            event_index: 0,
            committed: true,
            type: 'stx_transfer',
            sender,
            recipient: p.recipient,
            amount: p.amount,
            memo: p.memo,
          },
        ],
      })),
    contract_call: fc
      .record({
        contract: arbitraryContractIdentifier(),
        fn: fc.oneof(
          fc.constantFrom(...HARNESS_POOL.functionNames),
          fc.stringMatching(/^[a-z][a-z-]{0,15}$/),
        ),
        args: fc.array(argument, { maxLength: 3 }),
        events: events(maxEvents),
      })
      .map((p) => ({
        payload: () => ({
          type: 'contract_call',
          contract_identifier: p.contract,
          function_name: p.fn,
          args: p.args,
        }),
        events: () => p.events,
      })),
    contract_deploy: fc
      .record({
        name: fc.oneof(
          fc.constantFrom(...HARNESS_POOL.contractNames),
          fc.stringMatching(/^[a-z][a-z0-9-]{0,11}$/),
        ),
        version: fc.constantFrom(null, 1, 2, 3),
        events: events(2),
      })
      .map((p) => ({
        payload: (sender) => ({
          type: 'contract_deploy',
          contract_identifier: `${sender}.${p.name}`,
          clarity_version: p.version,
          source_code: '(define-data-var counter uint u0)',
          abi: null,
        }),
        events: () => p.events,
      })),
    coinbase: fc
      .record({
        alt_recipient: fc.option(arbitraryPrincipal(), { nil: null }),
        vrf_proof: fc.option(arbitraryHex(80), { nil: null }),
      })
      .map((p) => ({ payload: () => ({ type: 'coinbase', ...p }), events: () => [] })),
    tenure_change: fc
      .record({
        tenure_consensus_hash: arbitraryHex(20),
        prev_tenure_consensus_hash: arbitraryHex(20),
        burn_view_consensus_hash: arbitraryHex(20),
        previous_tenure_end: arbitraryHex(32),
        previous_tenure_blocks: fc.nat(100),
        cause: fc.constantFrom(...CAUSES),
        pubkey_hash: arbitraryHex(20),
      })
      .map((p) => ({ payload: () => ({ type: 'tenure_change', ...p }), events: () => [] })),
    poison_microblock: fc
      .record({ microblock_header_1: arbitraryHex(24), microblock_header_2: arbitraryHex(24) })
      .map((p) => ({ payload: () => ({ type: 'poison_microblock', ...p }), events: () => [] })),
  };
}

/** Transaction kinds that can abort; the others (coinbase, tenure change, poison report) always succeed. */
const CAN_ABORT = new Set<TransactionPayload['type']>(['token_transfer', 'contract_call', 'contract_deploy']);

/**
 * A transaction as normalizeBlock makes it, with consistent parts: a standard-principal sender,
 * sometimes a sponsor; a payload of any of the six kinds; the events its kind emits (an STX
 * transfer's own `stx_transfer`, any events for calls and deploys, committed exactly when the
 * status is `success`, as the node reports them); operations built by the project's
 * `buildOperations`; and metadata that agrees. `raw_tx` is random bytes, not a decodable
 * transaction, and there are no post-conditions.
 */
export function arbitraryTransaction(options: TransactionOptions = {}): fc.Arbitrary<NormalizedTransaction> {
  const kinds = drafts(options.maxEvents ?? 4);
  const draft = fc.oneof(
    { weight: 3, arbitrary: kinds.token_transfer },
    { weight: 4, arbitrary: kinds.contract_call },
    { weight: 1, arbitrary: kinds.contract_deploy },
    { weight: 1, arbitrary: kinds.coinbase },
    { weight: 1, arbitrary: kinds.tenure_change },
    { weight: 1, arbitrary: kinds.poison_microblock },
  );
  return fc
    .record({
      txid: arbitraryHex(32),
      rawTx: fc.uint8Array({ minLength: 1, maxLength: 64 }).map((b) => `0x${Buffer.from(b).toString('hex')}`),
      sender: arbitraryStandardPrincipal(),
      sponsor: fc.option(arbitraryStandardPrincipal(), { nil: null, freq: 4 }),
      fee: fc.oneof(fc.constant('0'), fc.bigInt({ min: 1n, max: 100_000n }).map(String)),
      nonce: fc.nat(1000),
      status: fc.constantFrom<TransactionStatus>(
        'success',
        'success',
        'abort_by_response',
        'abort_by_post_condition',
      ),
      draft,
    })
    .map((t) => {
      const payload = t.draft.payload(t.sender);
      const status = CAN_ABORT.has(payload.type) ? t.status : 'success';
      const committed = status === 'success';
      const events = t.draft.events(t.sender).map((e, i) => ({ ...e, event_index: i, committed }));
      const sponsored = t.sponsor !== null;
      return {
        transaction_identifier: { hash: t.txid },
        operations: buildOperations({
          status,
          sender: t.sender,
          sponsor: t.sponsor,
          fee: t.fee,
          payload,
          abiJson: null,
          events,
        }),
        metadata: {
          type: payload.type,
          status,
          result: reprOf(status === 'abort_by_response' ? Cl.error(Cl.uint(1)) : Cl.ok(Cl.bool(true))),
          sender_address: t.sender,
          sponsor_address: t.sponsor,
          sponsored,
          fee_rate: t.fee,
          nonce: t.nonce,
          position: { index: options.index ?? 0, microblock_identifier: null },
          execution_cost: { ...ZERO_COST },
          vm_error: status === 'abort_by_post_condition' ? 'post-condition check failed' : null,
          raw_tx: t.rawTx,
          post_conditions: { mode: 'allow', post_conditions: [] },
        },
        payload,
        events,
      } satisfies NormalizedTransaction;
    });
}
