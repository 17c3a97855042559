// Random block trees and streams over them, with gaps and poison, for the chain model's property tests.
import fc from 'fast-check';
import type { BlockHeader } from '../../core/chain/block-header.js';

const hashOf = (node: number): string => `0x${(node + 1).toString(16).padStart(64, '0')}`;
const poisonHash = (n: number): string => `0x${'f'.repeat(48)}${n.toString(16).padStart(16, '0')}`;
const OUTSIDE_PARENT = `0x${'e'.repeat(64)}`;

/** A random block tree: node 0 is the root; each later node's parent came before it, mostly a recent one. */
export const trees = fc.integer({ min: 1, max: 40 }).chain((size) =>
  fc
    .tuple(
      ...Array.from({ length: size - 1 }, (_, k) =>
        fc.oneof(
          { weight: 3, arbitrary: fc.integer({ min: 0, max: Math.min(k, 2) }).map((back) => k - back) },
          { weight: 1, arbitrary: fc.integer({ min: 0, max: k }) },
        ),
      ),
    )
    .map((parents) => {
      const headers: BlockHeader[] = [{ hash: hashOf(0), height: 100, parent_hash: OUTSIDE_PARENT }];
      parents.forEach((parent, k) => {
        headers.push({
          hash: hashOf(k + 1),
          height: headers[parent].height + 1,
          parent_hash: hashOf(parent),
        });
      });
      return headers;
    }),
);

/** One body of a stream: a block of the tree, or poison that can never take a place in it. */
export type Delivery = { header: BlockHeader; poison: boolean };

/**
 * A stream over a random tree: some blocks never sent (gaps, orphans for good), the rest in random
 * order with repeats, and poison between them: a block that is its own parent, a height no chain
 * has, a block naming an already sent block as parent at the wrong height, and a pair naming each
 * other as parent.
 */
export const streams = trees.chain((headers) =>
  fc
    .record({
      order: fc.shuffledSubarray(headers, { minLength: 1 }),
      repeats: fc.array(fc.tuple(fc.nat(headers.length - 1), fc.nat(60)), { maxLength: 6 }),
      poison: fc.array(fc.tuple(fc.constantFrom('self', 'high', 'height', 'cycle'), fc.nat(60), fc.nat(99)), {
        maxLength: 6,
      }),
    })
    .map(({ order, repeats, poison }) => {
      const stream: Delivery[] = order.map((header) => ({ header, poison: false }));
      for (const [node, at] of repeats)
        stream.splice(Math.min(at, stream.length), 0, { header: headers[node], poison: false });
      poison.forEach(([kind, at, n], i) => {
        const where = Math.min(at, stream.length);
        const sent = stream.slice(0, where).filter((d) => !d.poison);
        const base = sent.length > 0 ? sent[n % sent.length].header : headers[0];
        const hash = poisonHash(i * 2);
        // A wrong height is only poison against a parent already sent; before that it is a plain unknown-parent block.
        const which = kind === 'height' && sent.length === 0 ? 'self' : kind;
        const bodies: BlockHeader[] =
          which === 'self'
            ? [{ hash, height: base.height + 1, parent_hash: hash }]
            : which === 'high'
              ? [{ hash, height: 2 ** 32, parent_hash: base.hash }]
              : which === 'height'
                ? [{ hash, height: base.height + 3, parent_hash: base.hash }]
                : [
                    { hash, height: base.height, parent_hash: poisonHash(i * 2 + 1) },
                    { hash: poisonHash(i * 2 + 1), height: base.height + 1, parent_hash: hash },
                  ];
        // In the cycle only the second body closes the loop; the first is an ordinary unknown-parent block.
        stream.splice(
          where,
          0,
          ...bodies.map((header, j) => ({ header, poison: kind !== 'cycle' || j === 1 })),
        );
      });
      // A stream starts with a block: the first body the chain sees is its root.
      return stream[0].poison ? [{ header: headers[0], poison: false }, ...stream] : stream;
    }),
);
