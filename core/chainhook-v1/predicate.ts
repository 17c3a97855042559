/**
 * A Chainhook 1.x predicate, as 1.x's predicate files and `POST /v1/chainhooks` bodies write it.
 * Field names and values are 1.x's own, so a file written for a 1.x node reads here unchanged.
 */

/** The Stacks networks a 1.x predicate may name. */
export type PredicateNetwork = 'mainnet' | 'testnet';

/** What `ft_event` and `nft_event` look for. */
export type TokenAction = 'mint' | 'transfer' | 'burn';

/** What `stx_event` looks for. */
export type StxAction = 'mint' | 'transfer' | 'lock' | 'burn';

/** The traits `contract_deployment` can ask a new contract to implement; `*` is any deployment. */
export type DeployedTrait = 'sip09' | 'sip10' | '*';

/** `block_height`'s one rule; `between` includes both ends. */
export type BlockHeightRule =
  { equals: number } | { higher_than: number } | { lower_than: number } | { between: [number, number] };

/** The `if_this` of a Stacks predicate: one scope with its fields. */
export type StacksScope =
  | { scope: 'txid'; equals: string }
  | ({ scope: 'block_height' } & BlockHeightRule)
  | { scope: 'ft_event'; asset_identifier: string; actions: TokenAction[] }
  | { scope: 'nft_event'; asset_identifier: string; actions: TokenAction[] }
  | { scope: 'stx_event'; actions: StxAction[] }
  | { scope: 'print_event'; contract_identifier: string; contains: string }
  | { scope: 'print_event'; contract_identifier: string; matches_regex: string }
  | { scope: 'contract_call'; contract_identifier: string; method: string }
  | { scope: 'contract_deployment'; deployer: string }
  | { scope: 'contract_deployment'; implement_trait: DeployedTrait }
  | { scope: 'signer_message'; after_timestamp: number }
  | { scope: 'signer_message'; signer_pubkey: string };

/** The scope names of 1.x's Stacks predicates. */
export type StacksScopeName = StacksScope['scope'];

/** The `then_that` of a predicate: post each payload, or append it to a file. */
export type PredicateAction =
  { http_post: { url: string; authorization_header: string } } | { file_append: { path: string } };

/** One network's part of a predicate (`networks.mainnet` / `networks.testnet`). */
export type NetworkPredicate = {
  if_this: StacksScope;
  then_that: PredicateAction;
  /** Evaluate from this height (history first); the tip when absent. */
  start_block?: number;
  /** Stop after this height. */
  end_block?: number;
  /** Expire after this many occurrences. */
  expire_after_occurrence?: number;
  /** Show Clarity values decoded in payloads. */
  decode_clarity_values?: boolean;
  /** Show a deployed contract's ABI in payloads. */
  include_contract_abi?: boolean;
  /** Add every event of a matching transaction's block to the payload (1.x's `capture_all_events`). */
  capture_all_events?: boolean;
};

/** A whole 1.x Stacks predicate. */
export type StacksPredicate = {
  uuid: string;
  name: string;
  version: number;
  chain: 'stacks';
  networks: Partial<Record<PredicateNetwork, NetworkPredicate>>;
};

/** Whether a block at `height` lies within the part's `start_block`..`end_block`: no other is delivered. */
export function withinBlocks(part: NetworkPredicate, height: number): boolean {
  return height >= (part.start_block ?? 0) && height <= (part.end_block ?? Infinity);
}
