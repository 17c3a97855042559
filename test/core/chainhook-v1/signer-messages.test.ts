import { expect } from 'chai';
import fc from 'fast-check';
import {
  shapeSignerMessagePayload,
  signerMessageEvents,
  signerMessageTest,
} from '../../../core/chainhook-v1/signer-messages.js';
import type { SignerChunk } from '../../../core/stacks-codec/signer-message/stackerdb-chunks.js';

const KEY = '0x02' + 'ab'.repeat(32);
const chunk = (pubkey: string): SignerChunk => ({
  contract: 'signers-0-1',
  sig: '0x' + '00'.repeat(65),
  pubkey,
  message: { type: 'BlockPushed', data: { block: {} as never } },
});
const TIP = { index: 7, hash: '0x' + '07'.repeat(32) };

describe('signerMessageEvents', () => {
  it('reports each message of a post with its receipt time and the tip then, in slot order', () => {
    const events = signerMessageEvents([chunk(KEY), chunk('0x03' + '00'.repeat(32))], 1_730_000_000_123, TIP);
    expect(
      events.map((e) => [e.payload.type, e.payload.data.pubkey, e.received_at_ms, e.received_at_block]),
    ).to.deep.equal([
      ['SignerMessage', KEY, 1_730_000_000_123, TIP],
      ['SignerMessage', '0x03' + '00'.repeat(32), 1_730_000_000_123, TIP],
    ]);
  });
});

describe('signerMessageTest', () => {
  it('takes a message received at or after after_timestamp, in milliseconds, and none before', () => {
    fc.assert(
      fc.property(fc.nat(), fc.nat(), (after, received) => {
        const test = signerMessageTest({ scope: 'signer_message', after_timestamp: after })!;
        const [event] = signerMessageEvents([chunk(KEY)], received, TIP);
        return test(event!) === received >= after;
      }),
    );
  });

  it("takes a signer_pubkey's messages whatever its case or 0x, and no other key's", () => {
    const [mine] = signerMessageEvents([chunk(KEY)], 1, TIP);
    const [other] = signerMessageEvents([chunk('0x03' + 'ab'.repeat(32))], 1, TIP);
    for (const written of [KEY, KEY.slice(2), KEY.toUpperCase().replace('0X', '0x')]) {
      const test = signerMessageTest({ scope: 'signer_message', signer_pubkey: written })!;
      expect([test(mine!), test(other!)], written).to.deep.equal([true, false]);
    }
  });

  it('is undefined for a scope that looks at blocks', () => {
    expect(signerMessageTest({ scope: 'txid', equals: '0x' + '00'.repeat(32) })).to.equal(undefined);
  });
});

describe('shapeSignerMessagePayload', () => {
  it("posts no blocks, the predicate's if_this, and the messages taken in events", () => {
    const events = signerMessageEvents([chunk(KEY)], 5, TIP);
    const if_this = { scope: 'signer_message', after_timestamp: 1 } as const;
    const payload = shapeSignerMessagePayload({
      uuid: 'u',
      predicate: { if_this, then_that: { http_post: { url: 'http://x', authorization_header: '' } } },
      events,
    });
    expect(payload).to.deep.equal({
      apply: [],
      rollback: [],
      chainhook: { uuid: 'u', predicate: if_this, is_streaming_blocks: true },
      events,
    });
  });
});
