import {
  FungibleConditionCode,
  NonFungibleConditionCode,
  PostConditionMode,
  PostConditionPrincipalId,
  PostConditionType,
  serializeCV,
  type AssetWire,
  type PostConditionPrincipalWire,
  type PostConditionWire,
} from '@stacks/transactions';
import type { ClarityValueRepr } from '../chain/clarity-value.js';
import type {
  FungibleConditionName,
  NonFungibleConditionName,
  PostCondition,
  PostConditionAsset,
  PostConditionModeName,
  PostConditionPrincipal,
  PostConditions,
} from '../chain/post-condition.js';
import { c32Address, decodeClarityValue, type ReprCache } from './clarity-repr.js';

const FUNGIBLE_CODES: Record<FungibleConditionCode, FungibleConditionName> = {
  [FungibleConditionCode.Equal]: 'sent_equal_to',
  [FungibleConditionCode.Greater]: 'sent_greater_than',
  [FungibleConditionCode.GreaterEqual]: 'sent_greater_than_or_equal_to',
  [FungibleConditionCode.Less]: 'sent_less_than',
  [FungibleConditionCode.LessEqual]: 'sent_less_than_or_equal_to',
};

const NON_FUNGIBLE_CODES: Record<NonFungibleConditionCode, NonFungibleConditionName> = {
  [NonFungibleConditionCode.Sends]: 'sent',
  [NonFungibleConditionCode.DoesNotSend]: 'not_sent',
  [NonFungibleConditionCode.MaybeSent]: 'maybe_sent',
};

const MODES: Record<PostConditionMode, PostConditionModeName> = {
  [PostConditionMode.Allow]: 'allow',
  [PostConditionMode.Deny]: 'deny',
  [PostConditionMode.Originator]: 'originator',
};

/**
 * Post-conditions as the payload shows them. The library also knows "staking" and "pox"
 * conditions, which Stacks consensus does not accept and the payload schema cannot express:
 * they are left out rather than stopping the block.
 */
export function decodePostConditions(
  mode: PostConditionMode,
  conditions: readonly PostConditionWire[],
  cache: ReprCache,
): PostConditions {
  const decoded: PostCondition[] = [];
  for (const pc of conditions) {
    const principal = decodePrincipal(pc.principal, cache);
    switch (pc.conditionType) {
      case PostConditionType.STX:
        decoded.push({
          type: 'stx',
          condition_code: FUNGIBLE_CODES[pc.conditionCode],
          amount: pc.amount.toString(),
          principal,
        });
        break;
      case PostConditionType.Fungible:
        decoded.push({
          type: 'fungible',
          condition_code: FUNGIBLE_CODES[pc.conditionCode],
          amount: pc.amount.toString(),
          principal,
          asset: decodeAsset(pc.asset, cache),
        });
        break;
      case PostConditionType.NonFungible: {
        // Post-conditions are rare next to events, so re-serializing the token id costs little.
        const value: ClarityValueRepr = decodeClarityValue(serializeCV(pc.assetName), cache);
        decoded.push({
          type: 'non_fungible',
          condition_code: NON_FUNGIBLE_CODES[pc.conditionCode],
          principal,
          asset: decodeAsset(pc.asset, cache),
          asset_value: { hex: value.hex, repr: value.repr },
        });
        break;
      }
      default:
        break;
    }
  }
  return { mode: MODES[mode], post_conditions: decoded };
}

function decodePrincipal(principal: PostConditionPrincipalWire, cache: ReprCache): PostConditionPrincipal {
  switch (principal.prefix) {
    case PostConditionPrincipalId.Origin:
      return { type_id: 'principal_origin' };
    case PostConditionPrincipalId.Standard:
      return {
        type_id: 'principal_standard',
        address: c32Address(principal.address.version, principal.address.hash160, cache),
      };
    case PostConditionPrincipalId.Contract:
      return {
        type_id: 'principal_contract',
        contract_name: principal.contractName.content,
        address: c32Address(principal.address.version, principal.address.hash160, cache),
      };
  }
}

function decodeAsset(asset: AssetWire, cache: ReprCache): PostConditionAsset {
  return {
    contract_name: asset.contractName.content,
    asset_name: asset.assetName.content,
    contract_address: c32Address(asset.address.version, asset.address.hash160, cache),
  };
}
