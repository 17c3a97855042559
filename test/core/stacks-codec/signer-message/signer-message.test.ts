import { createHash } from 'node:crypto';
import { expect } from 'chai';
import fc from 'fast-check';
import {
  decodeSignerMessage,
  UndeliveredKind,
} from '../../../../core/stacks-codec/signer-message/signer-message.js';
import { SignerWireError } from '../../../../core/stacks-codec/signer-message/wire-reader.js';
import {
  blockAccepted,
  blockPreCommit,
  blockProposal,
  blockPushed,
  blockRejected,
  filled,
  header,
  headerBytes,
} from '../../../support/signer-message-builder.js';

const sha512_256 = (...parts: Buffer[]) =>
  `0x${parts.reduce((h, p) => h.update(p), createHash('sha512-256')).digest('hex')}`;

describe('decodeSignerMessage', () => {
  it('reads an accepting block response with its signer signature hash, signature and server version', () => {
    const message = decodeSignerMessage(
      blockAccepted(filled(32, 0xab), filled(65, 0x02), 'stacks-signer 3.0'),
    );
    expect(message).to.deep.equal({
      type: 'BlockResponse',
      data: {
        type: 'Accepted',
        data: {
          signer_signature_hash: filled(32, 0xab),
          signature: filled(65, 0x02),
          metadata: { server_version: 'stacks-signer 3.0' },
        },
      },
    });
  });

  it('reads a rejection with its reason, chain id and a plain reject code', () => {
    const message = decodeSignerMessage(
      blockRejected({
        reason: 'sortition view mismatch',
        code: 4,
        signerSignatureHash: filled(32, 0xcd),
        chainId: 0x80000000,
        signature: filled(65, 0x03),
        serverVersion: 'v1',
      }),
    );
    expect(message).to.deep.equal({
      type: 'BlockResponse',
      data: {
        type: 'Rejected',
        data: {
          reason: 'sortition view mismatch',
          reason_code: 'SORTITION_VIEW_MISMATCH',
          signer_signature_hash: filled(32, 0xcd),
          chain_id: 0x80000000,
          signature: filled(65, 0x03),
          metadata: { server_version: 'v1' },
        },
      },
    });
  });

  it('names a failed validation with its validation code, as the 1.x client schema wants', () => {
    const message = decodeSignerMessage(
      blockRejected({
        reason: 'bad',
        code: 0,
        validation: 2,
        signerSignatureHash: filled(32, 1),
        chainId: 1,
        signature: filled(65, 1),
        serverVersion: '',
      }),
    );
    expect(
      message.type === 'BlockResponse' && message.data.type === 'Rejected' && message.data.data.reason_code,
    ).to.deep.equal({ VALIDATION_FAILED: 'INVALID_BLOCK' });
  });

  it('reads a proposal: the header, the block hash over all but the signer signatures, the index block hash', () => {
    const h = header({ signer_signature: [filled(65, 7)] });
    const message = decodeSignerMessage(blockProposal(h, 812, 93));
    const blockHash = sha512_256(headerBytes(h).signed);
    expect(message).to.deep.equal({
      type: 'BlockProposal',
      data: {
        block: {
          header: {
            version: h.version,
            chain_length: h.chain_length,
            burn_spent: h.burn_spent,
            consensus_hash: h.consensus_hash,
            parent_block_id: h.parent_block_id,
            tx_merkle_root: h.tx_merkle_root,
            state_index_root: h.state_index_root,
            timestamp: h.timestamp,
            miner_signature: h.miner_signature,
            signer_signature: [filled(65, 7)],
            pox_treatment: '0x000a00000002ffff',
          },
          block_hash: blockHash,
          index_block_hash: sha512_256(
            Buffer.from(blockHash.slice(2), 'hex'),
            Buffer.from(h.consensus_hash.slice(2), 'hex'),
          ),
          transactions: [],
        },
        burn_height: 812,
        reward_cycle: 93,
      },
    });
  });

  it('gives a pushed block the same block hash whatever the signers signed', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 255 }), { maxLength: 5 }), (fills) => {
        const unsigned = decodeSignerMessage(blockPushed(header()));
        const signed = decodeSignerMessage(
          blockPushed(header({ signer_signature: fills.map((f) => filled(65, f)) })),
        );
        if (unsigned.type !== 'BlockPushed' || signed.type !== 'BlockPushed') return false;
        return unsigned.data.block.block_hash === signed.data.block.block_hash;
      }),
    );
  });

  it('gives another block hash when a signed header field changes', () => {
    const a = decodeSignerMessage(blockPushed(header({ timestamp: 1 })));
    const b = decodeSignerMessage(blockPushed(header({ timestamp: 2 })));
    expect(a.type === 'BlockPushed' && a.data.block.block_hash).to.not.equal(
      b.type === 'BlockPushed' && b.data.block.block_hash,
    );
  });

  it('refuses a message kind 1.x never delivered as such, not as a corrupt chunk', () => {
    expect(() => decodeSignerMessage(blockPreCommit(filled(32, 9)))).to.throw(
      UndeliveredKind,
      'BlockPreCommit',
    );
  });

  it('refuses a truncated message with where it ends', () => {
    const bytes = blockAccepted(filled(32, 1), filled(65, 1), 'v');
    expect(() => decodeSignerMessage(bytes.subarray(0, 40))).to.throw(SignerWireError, 'ends early');
  });

  it('refuses an unknown message type', () => {
    expect(() => decodeSignerMessage(Buffer.from([42]))).to.throw(
      SignerWireError,
      'unknown signer message type 42',
    );
  });

  it('either decodes or refuses arbitrary bytes, never failing otherwise', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 8 }), fc.uint8Array({ maxLength: 400 }), (kind, rest) => {
        try {
          decodeSignerMessage(Buffer.concat([Buffer.from([kind]), rest]));
        } catch (err) {
          return err instanceof SignerWireError || err instanceof UndeliveredKind;
        }
        return true;
      }),
      { numRuns: 2000 },
    );
  });

  it('either decodes or refuses a real message with one byte changed or its end cut off', () => {
    const messages = [
      blockProposal(header({ signer_signature: [filled(65, 7)] }), 1, 2),
      blockAccepted(filled(32, 1), filled(65, 1), 'v'),
      blockRejected({
        reason: 'r',
        code: 0,
        signerSignatureHash: filled(32, 1),
        chainId: 1,
        signature: filled(65, 1),
        serverVersion: '',
      }),
    ];
    fc.assert(
      fc.property(
        fc.constantFrom(...messages),
        fc.nat(),
        fc.integer({ min: 0, max: 255 }),
        fc.boolean(),
        (message, at, value, cut) => {
          const bytes = Buffer.from(message);
          const i = at % bytes.length;
          const changed = cut ? bytes.subarray(0, i) : (bytes.writeUInt8(value, i), bytes);
          try {
            decodeSignerMessage(changed);
          } catch (err) {
            return err instanceof SignerWireError || err instanceof UndeliveredKind;
          }
          return true;
        },
      ),
      { numRuns: 2000 },
    );
  });
});
