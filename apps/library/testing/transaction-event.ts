// Arbitrary transaction events, as normalizeEvent makes them from a node's events.
import { Cl } from '@stacks/transactions';
import fc from 'fast-check';
import { bootAddress } from '../../../core/stacks-codec/network.js';
import type { TransactionEvent } from '../../../core/chain/transaction-event.js';
import {
  arbitraryAmount,
  arbitraryAssetIdentifier,
  arbitraryContractIdentifier,
  arbitraryHex,
  arbitraryNftId,
  arbitraryPrincipal,
  arbitraryStandardPrincipal,
} from './identifiers.js';
import { reprOf } from './pool.js';

/** Options of arbitraryTransactionEvent. */
export type TransactionEventOptions = {
  /** Fix `committed` (a successful transaction's events are committed, an aborted one's are not); random by default. */
  committed?: boolean;
  /** Fix `event_index`; 0 by default (arbitraryBlock numbers events across the block, as the node does). */
  eventIndex?: number;
};

const printValue = fc.oneof(
  fc.stringMatching(/^[a-z-]{1,12}$/).map((s) => reprOf(Cl.stringAscii(s))),
  fc
    .tuple(fc.stringMatching(/^[a-z-]{1,12}$/), fc.bigInt({ min: 0n, max: 10n ** 9n }))
    .map(([topic, n]) => reprOf(Cl.tuple({ topic: Cl.stringAscii(topic), amount: Cl.uint(n) }))),
);

type EventBody = TransactionEvent extends infer E
  ? E extends unknown
    ? Omit<E, 'event_index' | 'committed'>
    : never
  : never;

const bodies: fc.Arbitrary<EventBody>[] = [
  fc.record({
    type: fc.constant('stx_transfer' as const),
    sender: arbitraryPrincipal(),
    recipient: arbitraryPrincipal(),
    amount: arbitraryAmount(),
    memo: fc.option(arbitraryHex(34), { nil: null }),
  }),
  fc.record({
    type: fc.constant('stx_mint' as const),
    recipient: arbitraryPrincipal(),
    amount: arbitraryAmount(),
  }),
  fc.record({
    type: fc.constant('stx_burn' as const),
    sender: arbitraryPrincipal(),
    amount: arbitraryAmount(),
  }),
  fc.record({
    type: fc.constant('stx_lock' as const),
    locked_address: arbitraryStandardPrincipal(),
    locked_amount: arbitraryAmount(),
    unlock_height: fc.integer({ min: 1, max: 2_000_000 }),
    contract_identifier: fc
      .constantFrom('pox', 'pox-2', 'pox-3', 'pox-4')
      .map((n) => `${bootAddress('mainnet')}.${n}`),
  }),
  fc.record({
    type: fc.constant('ft_transfer' as const),
    asset_identifier: arbitraryAssetIdentifier('ft'),
    sender: arbitraryPrincipal(),
    recipient: arbitraryPrincipal(),
    amount: arbitraryAmount(),
  }),
  fc.record({
    type: fc.constant('ft_mint' as const),
    asset_identifier: arbitraryAssetIdentifier('ft'),
    recipient: arbitraryPrincipal(),
    amount: arbitraryAmount(),
  }),
  fc.record({
    type: fc.constant('ft_burn' as const),
    asset_identifier: arbitraryAssetIdentifier('ft'),
    sender: arbitraryPrincipal(),
    amount: arbitraryAmount(),
  }),
  fc.record({
    type: fc.constant('nft_transfer' as const),
    asset_identifier: arbitraryAssetIdentifier('nft'),
    sender: arbitraryPrincipal(),
    recipient: arbitraryPrincipal(),
    value: arbitraryNftId(),
  }),
  fc.record({
    type: fc.constant('nft_mint' as const),
    asset_identifier: arbitraryAssetIdentifier('nft'),
    recipient: arbitraryPrincipal(),
    value: arbitraryNftId(),
  }),
  fc.record({
    type: fc.constant('nft_burn' as const),
    asset_identifier: arbitraryAssetIdentifier('nft'),
    sender: arbitraryPrincipal(),
    value: arbitraryNftId(),
  }),
  fc.record({
    type: fc.constant('contract_log' as const),
    contract_identifier: arbitraryContractIdentifier(),
    topic: fc.constant('print'),
    value: printValue,
  }),
];

/** Any of the eleven event types, with principals, assets and ids drawn mostly from HARNESS_POOL. */
export function arbitraryTransactionEvent(
  options: TransactionEventOptions = {},
): fc.Arbitrary<TransactionEvent> {
  const committed = options.committed === undefined ? fc.boolean() : fc.constant(options.committed);
  return fc
    .tuple(fc.oneof(...bodies), committed)
    .map(
      ([body, isCommitted]) =>
        ({ ...body, event_index: options.eventIndex ?? 0, committed: isCommitted }) as TransactionEvent,
    );
}
