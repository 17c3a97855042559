// signer_message payloads against the official 1.x client's own payload schema (the one
// `validate_chainhook_payloads` checks), compiled with the client's TypeBox from this folder.
import { expect } from 'chai';
import { shapeSignerMessagePayload, signerMessageEvents } from '../../core/chainhook-v1/signer-messages.js';
import { readStackerDbPost } from '../../core/stacks-codec/signer-message/stackerdb-chunks.js';
import { TEST_KEYS } from '../support/block-builder.js';
import { fixturesDir, readReplayTsv } from '../support/fixtures.js';
import {
  blockAccepted,
  blockProposal,
  blockPushed,
  blockRejected,
  filled,
  header,
  signedSlot,
  stackerDbPost,
} from '../support/signer-message-builder.js';
import { skipUnlessClientInstalled, clientPayloadSchema, type CompiledSchema } from './client-schema.js';
import { skipBecause } from '../support/skip-because.js';

const TIP = { index: 12, hash: filled(32, 0x0c) };

function payloadOf(body: unknown) {
  const { chunks } = readStackerDbPost(body);
  return shapeSignerMessagePayload({
    uuid: 'signers',
    predicate: {
      if_this: { scope: 'signer_message', after_timestamp: 1 },
      then_that: { http_post: { url: 'http://127.0.0.1/x', authorization_header: '' } },
    },
    events: signerMessageEvents(chunks, 1_730_000_000_000, TIP),
  });
}

describe("signer_message payloads against the client's payload schema", () => {
  let schema: CompiledSchema;

  before(function () {
    skipUnlessClientInstalled(this);
    schema = clientPayloadSchema();
  });

  function expectValid(payload: unknown): void {
    const errors = [...schema.Errors(payload)].slice(0, 3);
    expect(errors.map((e) => `${e.path}: ${e.message}`)).to.deep.equal([]);
  }

  it('accepts proposals, pushed blocks, acceptances and rejections of each reject code', () => {
    const rejection = (code: number) =>
      blockRejected({
        reason: 'no',
        code,
        validation: 6,
        signerSignatureHash: filled(32, 1),
        chainId: 0x80000000,
        signature: filled(65, 1),
        serverVersion: 'v',
      });
    const messages = [
      blockProposal(header({ signer_signature: [filled(65, 3)] }), 100, 5),
      blockPushed(header()),
      blockAccepted(filled(32, 1), filled(65, 1), 'v'),
      ...[0, 1, 2, 3, 4, 5].map(rejection),
    ];
    const body = stackerDbPost(
      'signers-0-1',
      messages.map((m, i) => signedSlot(m, TEST_KEYS.alice, i)),
    );
    const payload = payloadOf(body);
    expect(payload.events).to.have.length(messages.length);
    expectValid(payload);
  });

  it('accepts the messages of every recorded StackerDB post, mock messages included', async function () {
    if (!fixturesDir())
      skipBecause(this, 'the recorded fixtures are not beside the project (../shared/fixtures)');
    this.timeout(60_000);
    let events = 0;
    for await (const request of readReplayTsv('signer-metrics-api/stackerdb-sample-events.tsv.gz')) {
      if (request.path !== '/stackerdb_chunks') continue;
      const payload = payloadOf(request.body);
      events += payload.events.length;
      if (!schema.Check(payload)) expectValid(payload);
    }
    expect(events).to.equal(3169);
  });
});
