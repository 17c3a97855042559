// Blocks of contract calls for the contract-ABI bench: many calls, each to a contract of its own.
import { Cl } from '@stacks/transactions';
import type { ContractAbi } from '../../core/chain/contract-abi.js';
import type { NodeBlock } from '../../core/stacks-codec/node-block.js';
import { contractCall, type ChainBuilder } from '../../test/support/block-builder.js';

/** The one function every bench contract has: a market listing, as many NFT markets declare it. */
export const LIST_ITEM_ABI: ContractAbi = {
  functions: [
    {
      name: 'list-item',
      access: 'public',
      args: [
        { name: 'item-id', type: 'uint128' },
        { name: 'price', type: 'uint128' },
        { name: 'memo', type: { optional: { buffer: { length: 34 } } } },
      ],
      outputs: { type: { response: { ok: 'bool', error: 'uint128' } } },
    },
  ],
};

/** `count` contract ids of `address`, unique to `label`. */
export function contractIds(address: string, label: string, count: number): string[] {
  return Array.from({ length: count }, (_, i) => `${address}.${label}-market-${i}`);
}

/** The next block of `chain`: one `list-item` call to each of `contracts`, signed with consecutive nonces. */
export async function callBlock(
  chain: ChainBuilder,
  contracts: string[],
  firstNonce: number,
): Promise<NodeBlock> {
  const transactions = await Promise.all(
    contracts.map((contractId, i) =>
      contractCall({
        contractId,
        functionName: 'list-item',
        functionArgs: [Cl.uint(i), Cl.uint(1_000_000 + i), Cl.none()],
        nonce: firstNonce + i,
      }),
    ),
  );
  return chain.next({ transactions });
}
