// The blocks the live-step benches stream: each one STX transfer that also moves one fungible
// token, so hooks following that token match every block, and hooks following others never do.
import type { NormalizedBlock } from '../../core/chain/block.js';
import { normalizeBlock } from '../../core/stacks-codec/normalize-block.js';
import { ChainBuilder, TEST_KEYS, addressOf, events } from '../../test/support/block-builder.js';
import { stxTransfer, withEvents } from '../../test/support/block-builder.js';

/** The contract that issues the token every block moves, and other tokens no block moves. */
export const ISSUER = 'SP3K8BC0PPEVCV7NZ6QSRWPQ2JE9E5B6N3PA0KBR9';
/** The token every block moves. */
export const FT = `${ISSUER}.token-alex::alex`;

/** `count` normalized mainnet blocks in a chain, each with one STX transfer that also moves `FT`. */
export async function ftTransferBlocks(count: number, label: string): Promise<NormalizedBlock[]> {
  const chain = new ChainBuilder({ label });
  const bob = addressOf(TEST_KEYS.bob);
  const tx = withEvents(
    await stxTransfer({ recipient: bob, amount: 7n }),
    events.ftTransfer({ asset: FT, sender: addressOf(TEST_KEYS.alice), recipient: bob, amount: 3n }),
  );
  return Array.from(
    { length: count },
    () =>
      normalizeBlock(chain.next({ transactions: [tx] }), { network: 'mainnet', lookupAbi: () => undefined })
        .block,
  );
}
