import { expect } from 'chai';
import fc from 'fast-check';
import { backfillId, backfillOfPayload, backfillPayloadId } from '../../../core/backfill/backfill-payload.js';

describe('backfillPayloadId', () => {
  it('makes a delivery id the backfill can be read back from, different for each height', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[0-9a-f]{16}$/), fc.nat(), fc.nat(), (hex, a, b) => {
        const backfill = backfillId(hex);
        const id = backfillPayloadId(backfill, a);
        expect(id).to.match(/^msg_[0-9a-f]{32}$/);
        expect(backfillOfPayload(id)).to.equal(backfill);
        expect(id === backfillPayloadId(backfill, b)).to.equal(a === b);
      }),
    );
  });

  it('reads no backfill from an id of another shape', () => {
    expect(backfillOfPayload('msg_live')).to.equal(undefined);
  });
});
