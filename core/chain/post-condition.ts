/** A transaction's post-conditions and mode, in the shape of the client's `post_conditions` schema. */
export type PostConditions = { mode: PostConditionModeName; post_conditions: PostCondition[] };

/** How a transaction treats asset movements its post-conditions do not mention. */
export type PostConditionModeName = 'allow' | 'deny' | 'originator';

/** One decoded post-condition (the client's `StacksPostConditionSchema`). */
export type PostCondition =
  | { type: 'stx'; condition_code: FungibleConditionName; amount: string; principal: PostConditionPrincipal }
  | {
      type: 'fungible';
      condition_code: FungibleConditionName;
      amount: string;
      principal: PostConditionPrincipal;
      asset: PostConditionAsset;
    }
  | {
      type: 'non_fungible';
      condition_code: NonFungibleConditionName;
      principal: PostConditionPrincipal;
      asset: PostConditionAsset;
      asset_value: { hex: string; repr: string };
    };

/** The principal a post-condition constrains. */
export type PostConditionPrincipal =
  | { type_id: 'principal_standard'; address: string }
  | { type_id: 'principal_contract'; contract_name: string; address: string }
  | { type_id: 'principal_origin' };

/** The FT or NFT class a post-condition names. */
export type PostConditionAsset = { contract_name: string; asset_name: string; contract_address: string };

/** Comparison of a fungible post-condition. */
export type FungibleConditionName =
  | 'sent_equal_to'
  | 'sent_greater_than'
  | 'sent_greater_than_or_equal_to'
  | 'sent_less_than'
  | 'sent_less_than_or_equal_to';

/** Claim of a non-fungible post-condition. */
export type NonFungibleConditionName = 'sent' | 'not_sent' | 'maybe_sent';
