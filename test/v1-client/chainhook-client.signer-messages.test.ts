// The official Chainhook 1.x client receiving signer messages from stackhooks: a recorded node's
// StackerDB posts, delivered to a signer_message predicate it registered, accepted by its schema.
import { rm } from 'node:fs/promises';
import { expect } from 'chai';
import type { SignerMessageEvent } from '../../core/chainhook-v1/signer-messages.js';
import { startTestServer, untilIngested, type TestServer } from '../support/api-server.js';
import { ChainBuilder } from '../support/block-builder.js';
import { describeWithFixtures, readPostedRequests } from '../support/fixtures.js';
import { makeTempDir } from '../support/temp-dir.js';
import { skipUnlessClientInstalled } from './client-schema.js';
import { startClientObserver, until, type ClientObserver } from './observer-process.js';

const EACH_KIND = 5;

describeWithFixtures('the Chainhook 1.x client receiving signer messages from stackhooks', function () {
  this.timeout(180_000);
  let t: TestServer;
  let observer: ClientObserver | undefined;
  let predicateDir: string;

  before(async function () {
    skipUnlessClientInstalled(this);
    t = await startTestServer({ STACKHOOKS_V1_PORT: '0' });
    predicateDir = await makeTempDir('stackhooks-v1-client-');
    observer = await startClientObserver({
      v1Port: t.server.v1Port!,
      predicateDir,
      predicates: [
        {
          name: 'signer-messages',
          version: 1,
          chain: 'stacks',
          networks: { mainnet: { if_this: { scope: 'signer_message', after_timestamp: 1 } } },
        },
      ],
    });
  });

  after(async () => {
    observer?.kill();
    await t?.stop();
    if (predicateDir) await rm(predicateDir, { recursive: true, force: true });
  });

  it("takes a payload per recorded StackerDB post, each message with its signer's key", async () => {
    const post = async (path: string, body: unknown) => {
      const response = await fetch(`${t.observerUrl}${path}`, { method: 'POST', body: JSON.stringify(body) });
      expect(response.status).to.equal(200);
    };
    await post('/new_block', new ChainBuilder().next());
    const requests = await readPostedRequests('signer-metrics-api/stackerdb-sample-events.tsv.gz');
    // The first few posts of each message kind (by the type byte of their first slot).
    const taken = new Map<string, number>();
    const posts = requests.filter((r) => {
      if (r.path !== '/stackerdb_chunks') return false;
      const kind =
        (r.body as { modified_slots: { data: string }[] }).modified_slots[0]?.data.slice(0, 2) ?? '';
      taken.set(kind, (taken.get(kind) ?? 0) + 1);
      return taken.get(kind)! <= EACH_KIND;
    });
    expect(posts).to.have.length(EACH_KIND * 6);
    for (const request of posts) await post('/stackerdb_chunks', request.body);
    await untilIngested(t);
    await until(() => observer!.payloads.length >= posts.length, `${posts.length} payloads`);
    const events = observer!.payloads.flatMap((p) => (p as { events: SignerMessageEvent[] }).events);
    const slots = posts.reduce(
      (n, r) => n + (r.body as { modified_slots: unknown[] }).modified_slots.length,
      0,
    );
    expect(events).to.have.length(slots);
    expect(events.every((e) => /^0x0[23][0-9a-f]{64}$/.test(e.payload.data.pubkey))).to.equal(true);
    expect(new Set(events.map((e) => e.payload.data.message.type))).to.deep.equal(
      new Set([
        'BlockProposal',
        'BlockResponse',
        'BlockPushed',
        'MockProposal',
        'MockSignature',
        'MockBlock',
      ]),
    );
  });

  it('deregisters its predicate on close', async () => {
    await observer!.close();
    const response = await fetch(`http://127.0.0.1:${t.server.v1Port}/v1/chainhooks`);
    expect(((await response.json()) as { result: unknown[] }).result).to.deep.equal([]);
  });
});
