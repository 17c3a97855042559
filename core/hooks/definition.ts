/** The hook definition a user registers: what to watch and where to send it. */
import type { StacksPredicate } from '../chainhook-v1/predicate.js';

export type Network = 'mainnet' | 'testnet';

/** A principal: a standard address (`SP…`) or a contract (`SP….name`). */
export type Principal = string;

export type FtTransferFilter = {
  type: 'ft_transfer';
  asset_identifier?: string;
  sender?: Principal;
  receiver?: Principal;
};
export type FtMintFilter = { type: 'ft_mint'; asset_identifier?: string; receiver?: Principal };
export type FtBurnFilter = { type: 'ft_burn'; asset_identifier?: string; sender?: Principal };
export type FtEventFilter = { type: 'ft_event'; asset_identifier?: string };
/** NFT `value`: an integer N means the token id `(uint N)`; a string is a Clarity repr or `0x` hex. */
export type NftValue = number | string;
export type NftTransferFilter = {
  type: 'nft_transfer';
  asset_identifier?: string;
  value?: NftValue;
  sender?: Principal;
  receiver?: Principal;
};
export type NftMintFilter = {
  type: 'nft_mint';
  asset_identifier?: string;
  value?: NftValue;
  receiver?: Principal;
};
export type NftBurnFilter = {
  type: 'nft_burn';
  asset_identifier?: string;
  value?: NftValue;
  sender?: Principal;
};
export type NftEventFilter = { type: 'nft_event'; asset_identifier?: string; value?: NftValue };
export type StxTransferFilter = { type: 'stx_transfer'; sender?: Principal; receiver?: Principal };
export type StxMintFilter = { type: 'stx_mint'; receiver?: Principal };
export type StxBurnFilter = { type: 'stx_burn'; sender?: Principal };
export type StxEventFilter = { type: 'stx_event' };
export type ContractDeployFilter = {
  type: 'contract_deploy';
  contract_identifier?: string;
  sender?: Principal;
};
export type ContractCallFilter = {
  type: 'contract_call';
  contract_identifier?: string;
  function_name?: string;
  sender?: Principal;
};
export type ContractLogFilter = { type: 'contract_log'; contract_identifier?: string; sender?: Principal };
export type CoinbaseFilter = { type: 'coinbase' };
export type TenureChangeFilter = { type: 'tenure_change'; cause?: 'block_found' | 'extended' };
export type BalanceChangeFilter = { type: 'balance_change'; principal: Principal };

/** One entry of `filters.events`: a discriminated union on `type`. */
export type EventFilter =
  | FtTransferFilter
  | FtMintFilter
  | FtBurnFilter
  | FtEventFilter
  | NftTransferFilter
  | NftMintFilter
  | NftBurnFilter
  | NftEventFilter
  | StxTransferFilter
  | StxMintFilter
  | StxBurnFilter
  | StxEventFilter
  | ContractDeployFilter
  | ContractCallFilter
  | ContractLogFilter
  | CoinbaseFilter
  | TenureChangeFilter
  | BalanceChangeFilter;

export type EventFilterType = EventFilter['type'];

/** Every filter type, in the order Hiro's Chainhooks API lists them. */
export const EVENT_FILTER_TYPES: readonly EventFilterType[] = [
  'ft_transfer',
  'ft_mint',
  'ft_burn',
  'ft_event',
  'nft_transfer',
  'nft_mint',
  'nft_burn',
  'nft_event',
  'stx_transfer',
  'stx_mint',
  'stx_burn',
  'stx_event',
  'contract_deploy',
  'contract_call',
  'contract_log',
  'coinbase',
  'tenure_change',
  'balance_change',
];

export type HookOptions = {
  decode_clarity_values?: boolean;
  include_contract_abi?: boolean;
  include_contract_source_code?: boolean;
  include_post_conditions?: boolean;
  include_raw_transactions?: boolean;
  include_block_metadata?: boolean;
  include_block_signatures?: boolean;
  enable_on_registration?: boolean;
  expire_after_evaluations?: number;
  expire_after_occurrences?: number;
};

export type HttpPostAction = { type: 'http_post'; url: string };

export type HookDefinition = {
  name: string;
  version: '1';
  chain: 'stacks';
  network: Network;
  filters: { events: EventFilter[] };
  options?: HookOptions | null;
  action: HttpPostAction;
  /**
   * Set only on a hook registered through the Chainhook 1.x API: the predicate as it was sent. Such a
   * hook has no filters (the 2.0 matcher never picks it); its predicate's scope matches it, and its
   * payloads take 1.x's shape. The 2.0 API's schemas never let a body set it.
   */
  chainhook_v1?: StacksPredicate;
};

/** A PATCH body: each top-level field sent replaces the stored one whole. */
export type HookDefinitionUpdate = Partial<HookDefinition>;
