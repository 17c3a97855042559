// Transactions for the matcher tests: real signed ones through the block builder and normalizeBlock,
// and, for the kinds the builder cannot sign (coinbase, tenure change), consistent hand-made ones.
import { Cl } from '@stacks/transactions';
import type { NormalizedTransaction } from '../../../core/chain/block.js';
import type { TransactionPayload } from '../../../core/chain/transaction-payload.js';
import { reprOf } from '../../../apps/library/testing/pool.js';
import { normalizeBlock } from '../../../core/stacks-codec/normalize-block.js';
import { buildOperations } from '../../../core/chain/operations.js';
import { ChainBuilder, TEST_KEYS, addressOf, type BuiltTransaction } from '../../support/block-builder.js';

/** The test keys' mainnet addresses, and the contracts and assets the matcher tests use. */
export const ALICE = addressOf(TEST_KEYS.alice);
export const BOB = addressOf(TEST_KEYS.bob);
export const CAROL = addressOf(TEST_KEYS.carol);
export const TOKEN_CONTRACT = `${ALICE}.token`;
export const TOKEN = `${TOKEN_CONTRACT}::tok`;
export const OTHER_TOKEN = `${BOB}.other::coin`;
export const NFT = `${ALICE}.art::piece`;

/** The built transactions in one block, normalized as ingest would (mainnet). */
export function normalized(...transactions: BuiltTransaction[]): NormalizedTransaction[] {
  const block = new ChainBuilder().next({ transactions });
  return normalizeBlock(block, { network: 'mainnet', lookupAbi: () => undefined }).block.transactions;
}

/** The one built transaction, normalized. */
export function normalizedOne(transaction: BuiltTransaction): NormalizedTransaction {
  return normalized(transaction)[0];
}

/** A successful transaction of a kind the builder cannot sign, sent by `sender`, with a zero fee and no events. */
export function unsignedKind(payload: TransactionPayload, sender = ALICE): NormalizedTransaction {
  return {
    transaction_identifier: { hash: `0x${'ab'.repeat(32)}` },
    operations: buildOperations({
      status: 'success',
      sender,
      sponsor: null,
      fee: '0',
      payload,
      abiJson: null,
      events: [],
    }),
    metadata: {
      type: payload.type,
      status: 'success',
      result: reprOf(Cl.ok(Cl.bool(true))),
      sender_address: sender,
      sponsor_address: null,
      sponsored: false,
      fee_rate: '0',
      nonce: 0,
      position: { index: 0, microblock_identifier: null },
      execution_cost: { read_count: 0, read_length: 0, runtime: 0, write_count: 0, write_length: 0 },
      vm_error: null,
      raw_tx: '0x00',
      post_conditions: { mode: 'allow', post_conditions: [] },
    },
    payload,
    events: [],
  };
}

/** A Nakamoto coinbase. */
export function coinbase(): NormalizedTransaction {
  return unsignedKind({ type: 'coinbase', alt_recipient: null, vrf_proof: `0x${'01'.repeat(80)}` });
}

/** A tenure change with this cause. */
export function tenureChange(
  cause: Extract<TransactionPayload, { type: 'tenure_change' }>['cause'],
): NormalizedTransaction {
  const hash = (byte: string, bytes: number) => `0x${byte.repeat(bytes)}`;
  return unsignedKind({
    type: 'tenure_change',
    tenure_consensus_hash: hash('11', 20),
    prev_tenure_consensus_hash: hash('22', 20),
    burn_view_consensus_hash: hash('33', 20),
    previous_tenure_end: hash('44', 32),
    previous_tenure_blocks: 3,
    cause,
    pubkey_hash: hash('55', 20),
  });
}

/** The transaction with `sponsor` paying its fee, operations rebuilt to match. */
export function sponsoredBy(tx: NormalizedTransaction, sponsor: string): NormalizedTransaction {
  const operations = buildOperations({
    status: tx.metadata.status,
    sender: tx.metadata.sender_address,
    sponsor,
    fee: tx.metadata.fee_rate,
    payload: tx.payload,
    abiJson: null,
    events: tx.events,
  });
  return { ...tx, operations, metadata: { ...tx.metadata, sponsor_address: sponsor, sponsored: true } };
}
