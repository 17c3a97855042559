import { expect } from 'chai';
import { readStackerDbPost } from '../../../../core/stacks-codec/signer-message/stackerdb-chunks.js';
import { TEST_KEYS } from '../../../support/block-builder.js';
import {
  blockAccepted,
  blockPreCommit,
  filled,
  publicKeyOf,
  signedSlot,
  stackerDbPost,
} from '../../../support/signer-message-builder.js';

const accepted = (fill: number) => blockAccepted(filled(32, fill), filled(65, fill), 'stacks-signer 3.1');

describe('readStackerDbPost', () => {
  it("reports each slot's message with the key that signed the slot, the contract and the 0x signature", () => {
    const alice = signedSlot(accepted(1), TEST_KEYS.alice, 3, 17);
    const bob = signedSlot(accepted(2), TEST_KEYS.bob, 4, 2);
    const { chunks, skipped } = readStackerDbPost(stackerDbPost('signers-1-1', [alice, bob]));
    expect(skipped).to.deep.equal([]);
    expect(chunks.map((c) => [c.contract, c.pubkey, c.sig])).to.deep.equal([
      ['signers-1-1', publicKeyOf(TEST_KEYS.alice), `0x${alice.sig}`],
      ['signers-1-1', publicKeyOf(TEST_KEYS.bob), `0x${bob.sig}`],
    ]);
    expect(chunks[1]!.message.type).to.equal('BlockResponse');
  });

  it('recovers another key when the slot version is not the one signed', () => {
    const slot = { ...signedSlot(accepted(1), TEST_KEYS.alice, 0, 5), slot_version: 6 };
    const [chunk] = readStackerDbPost(stackerDbPost('signers-0-1', [slot])).chunks;
    expect(chunk!.pubkey).to.not.equal(publicKeyOf(TEST_KEYS.alice));
  });

  it('skips a slot that does not decode, with its id and reason, and keeps the others of the post', () => {
    const good = signedSlot(accepted(1), TEST_KEYS.alice, 0);
    const bad = signedSlot(accepted(2).subarray(0, 50), TEST_KEYS.bob, 1);
    const { chunks, skipped } = readStackerDbPost(stackerDbPost('signers-0-1', [bad, good]));
    expect(chunks.map((c) => c.pubkey)).to.deep.equal([publicKeyOf(TEST_KEYS.alice)]);
    expect(skipped).to.have.length(1);
    expect(skipped[0]).to.include({ slot_id: 1, undelivered: false });
    expect(skipped[0]!.reason).to.match(/ends early/);
  });

  it('skips a kind 1.x never delivered as undelivered, not malformed', () => {
    const slot = signedSlot(blockPreCommit(filled(32, 5)), TEST_KEYS.alice, 2);
    const { chunks, skipped } = readStackerDbPost(stackerDbPost('signers-0-3', [slot]));
    expect(chunks).to.deep.equal([]);
    expect(skipped).to.deep.equal([
      { slot_id: 2, reason: 'a BlockPreCommit message, which 1.x did not deliver', undelivered: true },
    ]);
  });

  it('skips a slot whose signature or data is not hex, or whose ids are not u32', () => {
    const slot = signedSlot(accepted(1), TEST_KEYS.alice);
    const { chunks, skipped } = readStackerDbPost(
      stackerDbPost('miners', [
        { ...slot, sig: 'zz' },
        { ...slot, data: 'abc' },
        { ...slot, slot_id: -1 },
        { ...slot, sig: slot.sig.slice(2) },
      ]),
    );
    expect(chunks).to.deep.equal([]);
    expect(skipped.map((s) => s.reason)).to.deep.equal([
      'sig must be hex',
      'data must be hex',
      'slot_id and slot_version must be u32 integers',
      'a signature has 64 bytes, not 65',
    ]);
  });

  it('reads a body that is not a StackerDB post as one skipped, malformed entry', () => {
    expect(readStackerDbPost({ contract_id: 'x' })).to.deep.equal({
      chunks: [],
      skipped: [
        {
          slot_id: null,
          reason: 'not a StackerDB post: no contract_id.name or modified_slots',
          undelivered: false,
        },
      ],
    });
  });
});
