import type { TransactionEvent } from '../chain/transaction-event.js';

/** A currency as 1.x's operations named it; `metadata` says which asset. */
export type V1Currency = {
  symbol: string;
  decimals: number;
  metadata: {
    asset_class_identifier: string;
    asset_identifier: string | null;
    standard: 'SIP09' | 'SIP10' | 'NONE';
  };
};

/** One Rosetta operation of a 1.x transaction (`RosettaOperationSchema`). */
export type V1Operation = {
  operation_identifier: { index: number };
  related_operations?: { index: number }[];
  type: 'CREDIT' | 'DEBIT' | 'LOCK';
  status: 'SUCCESS';
  account: { address: string };
  amount: { value: number; currency: V1Currency };
};

// 1.x sent STX with no currency metadata, which the client's schema requires: this names it
// without claiming a token standard.
const STX: V1Currency = {
  symbol: 'STX',
  decimals: 6,
  metadata: { asset_class_identifier: 'STX', asset_identifier: null, standard: 'NONE' },
};

/**
 * The operations 1.x derived from a transaction's events, in event order: a credit for a mint, a
 * debit for a burn, a debit and a credit pointing at each other for a transfer, a lock for an STX
 * lock. A fungible token is 1.x's `TOKEN` with 6 decimals (1.x never read the token's own), an NFT
 * its class with 0 decimals and the token id's hex, one unit a move. Values are JSON numbers, as
 * the client's schema has them: one past 2^53 is the nearest a JavaScript reader gets either way.
 */
export function v1Operations(events: readonly TransactionEvent[]): V1Operation[] {
  const ops: V1Operation[] = [];
  const push = (type: V1Operation['type'], address: string, value: string | number, currency: V1Currency) =>
    ops.push({
      operation_identifier: { index: ops.length },
      type,
      status: 'SUCCESS',
      account: { address },
      amount: { value: Number(value), currency },
    });
  const pair = (sender: string, recipient: string, value: string | number, currency: V1Currency) => {
    const debit = ops.length;
    push('DEBIT', sender, value, currency);
    push('CREDIT', recipient, value, currency);
    ops[debit]!.related_operations = [{ index: debit + 1 }];
    ops[debit + 1]!.related_operations = [{ index: debit }];
  };
  for (const event of events) {
    switch (event.type) {
      case 'stx_transfer':
        pair(event.sender, event.recipient, event.amount, STX);
        break;
      case 'stx_mint':
        push('CREDIT', event.recipient, event.amount, STX);
        break;
      case 'stx_burn':
        push('DEBIT', event.sender, event.amount, STX);
        break;
      case 'stx_lock':
        push('LOCK', event.locked_address, event.locked_amount, STX);
        break;
      case 'ft_transfer':
        pair(event.sender, event.recipient, event.amount, fungible(event.asset_identifier));
        break;
      case 'ft_mint':
        push('CREDIT', event.recipient, event.amount, fungible(event.asset_identifier));
        break;
      case 'ft_burn':
        push('DEBIT', event.sender, event.amount, fungible(event.asset_identifier));
        break;
      case 'nft_transfer':
        pair(event.sender, event.recipient, 1, nonFungible(event.asset_identifier, event.value.hex));
        break;
      case 'nft_mint':
        push('CREDIT', event.recipient, 1, nonFungible(event.asset_identifier, event.value.hex));
        break;
      case 'nft_burn':
        push('DEBIT', event.sender, 1, nonFungible(event.asset_identifier, event.value.hex));
        break;
      case 'contract_log':
        break;
    }
  }
  return ops;
}

/**
 * 1.x's receipt radii: the asset classes the events moved, and the contracts they touched (each
 * token's contract and each printing contract), each once, in the order first met.
 */
export function mutatedRadius(events: readonly TransactionEvent[]): {
  assets: string[];
  contracts: string[];
} {
  const assets = new Set<string>();
  const contracts = new Set<string>();
  for (const event of events) {
    if (event.type === 'contract_log') contracts.add(event.contract_identifier);
    else if ('asset_identifier' in event) {
      assets.add(event.asset_identifier);
      contracts.add(event.asset_identifier.split('::')[0]!);
    }
  }
  return { assets: [...assets], contracts: [...contracts] };
}

function fungible(assetClass: string): V1Currency {
  return {
    symbol: 'TOKEN',
    decimals: 6,
    metadata: { asset_class_identifier: assetClass, asset_identifier: null, standard: 'SIP10' },
  };
}

function nonFungible(assetClass: string, tokenHex: string): V1Currency {
  return {
    symbol: assetClass,
    decimals: 0,
    metadata: { asset_class_identifier: assetClass, asset_identifier: tokenHex, standard: 'SIP09' },
  };
}
