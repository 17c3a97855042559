// The event half of the block builder: node-format event bodies, attached with `withEvents`.
import { serializeCV } from '@stacks/transactions';
import type { ClarityValue } from '@stacks/transactions';
import type { NodeEvent } from '../../core/stacks-codec/node-block.js';

/** An event before a block numbers it: its node `type`, the inner object, and whether it was committed. */
export type EventSpec = { type: NodeEvent['type']; payload: Record<string, unknown>; committed: boolean };

/** The ABI the node reports for a contract that defines nothing. */
export const EMPTY_ABI = {
  functions: [],
  variables: [],
  maps: [],
  fungible_tokens: [],
  non_fungible_tokens: [],
  epoch: 'Epoch21',
  clarity_version: 'Clarity2',
};

/** An all-zero execution cost, as the node reports it. */
export function zeroCost() {
  return { runtime: 0, read_count: 0, read_length: 0, write_count: 0, write_length: 0 };
}

type Amount = number | bigint;
const spec = (type: NodeEvent['type'], payload: Record<string, unknown>): EventSpec => ({
  type,
  payload,
  committed: true,
});
const hex = (value: ClarityValue): string => `0x${serializeCV(value)}`;

/** Node-format event bodies; amounts become decimal strings and Clarity values hex, as the node sends them. */
export const events = {
  /** `stx_transfer_event`; the memo is hex. */
  stxTransfer: (e: { sender: string; recipient: string; amount: Amount; memo?: string }) =>
    spec('stx_transfer_event', {
      sender: e.sender,
      recipient: e.recipient,
      amount: String(e.amount),
      ...(e.memo === undefined ? {} : { memo: Buffer.from(e.memo).toString('hex') }),
    }),
  /** `stx_mint_event`. */
  stxMint: (e: { recipient: string; amount: Amount }) =>
    spec('stx_mint_event', { recipient: e.recipient, amount: String(e.amount) }),
  /** `stx_burn_event`. */
  stxBurn: (e: { sender: string; amount: Amount }) =>
    spec('stx_burn_event', { sender: e.sender, amount: String(e.amount) }),
  /** `stx_lock_event`. */
  stxLock: (e: { lockedAddress: string; amount: Amount; unlockHeight: number; contractId?: string }) =>
    spec('stx_lock_event', {
      locked_amount: String(e.amount),
      unlock_height: String(e.unlockHeight),
      locked_address: e.lockedAddress,
      ...(e.contractId === undefined ? {} : { contract_identifier: e.contractId }),
    }),
  /** `ft_transfer_event`; `asset` is `CONTRACT::token`. */
  ftTransfer: (e: { asset: string; sender: string; recipient: string; amount: Amount }) =>
    spec('ft_transfer_event', {
      asset_identifier: e.asset,
      sender: e.sender,
      recipient: e.recipient,
      amount: String(e.amount),
    }),
  /** `ft_mint_event`. */
  ftMint: (e: { asset: string; recipient: string; amount: Amount }) =>
    spec('ft_mint_event', { asset_identifier: e.asset, recipient: e.recipient, amount: String(e.amount) }),
  /** `ft_burn_event`. */
  ftBurn: (e: { asset: string; sender: string; amount: Amount }) =>
    spec('ft_burn_event', { asset_identifier: e.asset, sender: e.sender, amount: String(e.amount) }),
  /** `nft_transfer_event`; `value` is the token id. */
  nftTransfer: (e: { asset: string; value: ClarityValue; sender: string; recipient: string }) =>
    spec('nft_transfer_event', {
      asset_identifier: e.asset,
      raw_value: hex(e.value),
      sender: e.sender,
      recipient: e.recipient,
    }),
  /** `nft_mint_event`. */
  nftMint: (e: { asset: string; value: ClarityValue; recipient: string }) =>
    spec('nft_mint_event', { asset_identifier: e.asset, raw_value: hex(e.value), recipient: e.recipient }),
  /** `nft_burn_event`. */
  nftBurn: (e: { asset: string; value: ClarityValue; sender: string }) =>
    spec('nft_burn_event', { asset_identifier: e.asset, raw_value: hex(e.value), sender: e.sender }),
  /** `contract_event` of a `print`. */
  print: (e: { contractId: string; value: ClarityValue }) =>
    spec('contract_event', { contract_identifier: e.contractId, topic: 'print', raw_value: hex(e.value) }),
};

/** The same event marked uncommitted, as the node reports the events of an aborted transaction. */
export function uncommitted(event: EventSpec): EventSpec {
  return { ...event, committed: false };
}
