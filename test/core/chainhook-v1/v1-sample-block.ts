// One block for the 1.x shaping tests: a contract call with a token transfer, an NFT mint, a lock
// and a print; an aborted call; and a SIP-010 deployment with its ABI.
import { Cl } from '@stacks/transactions';
import type { NormalizedBlock } from '../../../core/chain/block.js';
import type { NetworkPredicate } from '../../../core/chainhook-v1/predicate.js';
import { normalizeBlock } from '../../../core/stacks-codec/normalize-block.js';
import {
  ChainBuilder,
  TEST_KEYS,
  aborted,
  contractCall,
  contractDeploy,
  events,
  withEvents,
} from '../../support/block-builder.js';
import { ALICE, BOB, CAROL, NFT, TOKEN, TOKEN_CONTRACT } from '../matching/transactions.js';
import { SIP10_ABI } from './token-abis.js';

/** A `block_height` predicate posting to a receiver, with the two options that change a payload's shape. */
export const v1Predicate = (
  include_contract_abi = false,
  decode_clarity_values = false,
): NetworkPredicate => ({
  if_this: { scope: 'block_height', higher_than: 0 },
  then_that: { http_post: { url: 'http://127.0.0.1/p', authorization_header: 'Bearer x' } },
  include_contract_abi,
  decode_clarity_values,
});

/** The sample block, normalized (mainnet): transactions 0 (call), 1 (aborted call), 2 (deployment). */
export async function v1SampleBlock(): Promise<NormalizedBlock> {
  const node = new ChainBuilder().next({
    transactions: [
      withEvents(
        await contractCall({
          contractId: TOKEN_CONTRACT,
          functionName: 'move',
          functionArgs: [Cl.uint(5)],
        }),
        events.ftTransfer({ asset: TOKEN, sender: ALICE, recipient: BOB, amount: 5 }),
        events.nftMint({ asset: NFT, value: Cl.uint(7), recipient: CAROL }),
        events.stxLock({ lockedAddress: ALICE, amount: 10, unlockHeight: 99 }),
        events.print({ contractId: TOKEN_CONTRACT, value: Cl.stringAscii('hi') }),
      ),
      aborted(
        withEvents(
          await contractCall({ contractId: TOKEN_CONTRACT, functionName: 'burn', nonce: 1 }),
          events.ftBurn({ asset: TOKEN, sender: ALICE, amount: 1 }),
        ),
        'abort_by_response',
      ),
      await contractDeploy({
        contractName: 'coin',
        codeBody: '(define-fungible-token coin)',
        senderKey: TEST_KEYS.bob,
        abi: SIP10_ABI,
      }),
    ],
  });
  return normalizeBlock(node, { network: 'mainnet', lookupAbi: () => undefined }).block;
}
