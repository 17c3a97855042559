import { expect } from 'chai';
import type { NormalizedBlock } from '../../../core/chain/block.js';
import type { NetworkPredicate, StacksScope } from '../../../core/chainhook-v1/predicate.js';
import type { ChainhookV1Payload } from '../../../core/chainhook-v1/v1-payload.js';
import type { BlockStore } from '../../../core/ports/block-store.js';
import { normalizeBlock } from '../../../core/stacks-codec/normalize-block.js';
import { scanPredicate, type ScanTally } from '../../../core/use-cases/predicate-scan.js';
import { ChainBuilder, TEST_KEYS, addressOf, stxTransfer } from '../../support/block-builder.js';

/** A canonical chain by height, read one height at a time (a store without `canonicalRange`). */
function chainStore(blocks: NormalizedBlock[]): BlockStore {
  const byHeight = new Map(blocks.map((block) => [block.block_identifier.index, block]));
  return { getCanonicalAt: async (height: number) => byHeight.get(height) } as unknown as BlockStore;
}

/** The same chain, read as ranges of which the store answers at most `most` heights at a time. */
function shortRangeStore(blocks: NormalizedBlock[], most: number): BlockStore {
  const byHeight = new Map(blocks.map((block) => [block.block_identifier.index, block]));
  return {
    canonicalRange: async (from: number, to: number) =>
      Array.from({ length: Math.min(to - from + 1, most) }, (_, i) => byHeight.get(from + i)),
  } as unknown as BlockStore;
}

function part(scope: StacksScope, more: Partial<NetworkPredicate> = {}): NetworkPredicate {
  return {
    if_this: scope,
    then_that: { http_post: { url: 'http://x.test/', authorization_header: '' } },
    ...more,
  };
}

const TRANSFERS: StacksScope = { scope: 'stx_event', actions: ['transfer'] };

describe('scanPredicate', () => {
  let blocks: NormalizedBlock[];
  let txids: Map<number, string>;

  before(async () => {
    // Heights 1..250, a transfer in every tenth block; heights 101..110 are not in the archive.
    const chain = new ChainBuilder({ label: 'predicate-scan' });
    blocks = [];
    txids = new Map();
    for (let height = 1; height <= 250; height++) {
      const transfer =
        height % 10 === 0
          ? await stxTransfer({ recipient: addressOf(TEST_KEYS.bob), amount: BigInt(height) })
          : undefined;
      const node = chain.next({ transactions: transfer ? [transfer] : [] });
      if (transfer) txids.set(node.block_height, transfer.transaction.txid);
      if (height > 100 && height <= 110) continue;
      blocks.push(normalizeBlock(node, { network: 'mainnet', lookupAbi: () => undefined }).block);
    }
  });

  async function scan(predicate: NetworkPredicate, from: number, to: number) {
    const payloads: ChainhookV1Payload[] = [];
    const seen: ScanTally[] = [];
    const tally = await scanPredicate(
      { blocks: chainStore(blocks), uuid: 'scan', predicate, network: 'mainnet', from, to },
      async (payload) => void payloads.push(payload),
      (now) => seen.push({ ...now }),
    );
    return { payloads, tally, seen };
  }

  it('hands one payload per matching block, in height order, with its matched transactions and not streaming', async () => {
    const { payloads, tally } = await scan(part(TRANSFERS), 1, 250);
    const heights = [...txids.keys()].filter((h) => h < 101 || h > 110);
    expect(payloads.map((p) => p.apply.map((b) => b.block_identifier.index))).to.deep.equal(
      heights.map((h) => [h]),
    );
    expect(
      payloads.map((p) => p.apply[0]!.transactions.map((tx) => tx.transaction_identifier.hash)),
    ).to.deep.equal(heights.map((h) => [txids.get(h)]));
    expect(
      payloads.every((p) => p.rollback.length === 0 && p.chainhook.is_streaming_blocks === false),
    ).to.equal(true);
    expect(payloads[0]!.chainhook).to.deep.include({ uuid: 'scan', predicate: TRANSFERS });
    expect(tally).to.deep.equal({ height: 250, scanned: 240, matched: 24, missing: 10, expired: false });
  });

  it('scans only the heights asked for, counting those with no block in the archive as missing', async () => {
    const { payloads, tally } = await scan(part({ scope: 'block_height', higher_than: 0 }), 95, 115);
    expect(payloads.map((p) => p.apply[0]!.block_identifier.index)).to.deep.equal([
      95, 96, 97, 98, 99, 100, 111, 112, 113, 114, 115,
    ]);
    expect(tally).to.deep.include({ height: 115, scanned: 11, matched: 11, missing: 10 });
  });

  it('stops after expire_after_occurrence matching blocks', async () => {
    const { payloads, tally } = await scan(part(TRANSFERS, { expire_after_occurrence: 3 }), 1, 250);
    expect(payloads.map((p) => p.apply[0]!.block_identifier.index)).to.deep.equal([10, 20, 30]);
    expect(tally).to.deep.include({ height: 30, matched: 3, expired: true });
  });

  it('reads on after the heights a store answered when it answers fewer than asked', async () => {
    const payloads: number[] = [];
    const tally = await scanPredicate(
      {
        blocks: shortRangeStore(blocks, 7),
        uuid: 'scan',
        predicate: part(TRANSFERS),
        network: 'mainnet',
        from: 1,
        to: 250,
      },
      async (payload) => void payloads.push(payload.apply[0]!.block_identifier.index),
    );
    expect(payloads).to.deep.equal([...txids.keys()].filter((h) => h < 101 || h > 110));
    expect(tally).to.deep.equal({ height: 250, scanned: 240, matched: 24, missing: 10, expired: false });
  });

  it('reports its progress after each read of the archive, ending at the last height', async () => {
    const { seen } = await scan(part(TRANSFERS), 1, 250);
    expect(seen.map((s) => s.height)).to.deep.equal([100, 200, 250]);
  });

  it('waits for each payload to be taken before it hands the next', async () => {
    let taking = 0;
    let most = 0;
    await scanPredicate(
      {
        blocks: chainStore(blocks),
        uuid: 'scan',
        predicate: part(TRANSFERS),
        network: 'mainnet',
        from: 1,
        to: 250,
      },
      async () => {
        taking++;
        most = Math.max(most, taking);
        await new Promise((resolve) => setImmediate(resolve));
        taking--;
      },
    );
    expect(most).to.equal(1);
  });
});
