// The official Chainhook 1.x client against a running stackhooks: it is installed in this folder of
// its own (npm ci --prefix test/v1-client; `npm test` does it when missing), apart from the package.
import { rm } from 'node:fs/promises';
import { expect } from 'chai';
import { runReplay } from '../../apps/cli/replay-command.js';
import { startTestServer, untilIngested, type TestServer } from '../support/api-server.js';
import { describeWithFixtures, fixturePath } from '../support/fixtures.js';
import { makeTempDir } from '../support/temp-dir.js';
import { skipUnlessClientInstalled, clientPayloadSchema, type CompiledSchema } from './client-schema.js';
import { startClientObserver, until, type ClientObserver } from './observer-process.js';

describeWithFixtures(
  'the Chainhook 1.x client (ChainhookEventObserver 2.4.0) against stackhooks',
  function () {
    this.timeout(180_000);
    let t: TestServer;
    let observer: ClientObserver | undefined;
    let predicateDir: string;
    let schema: CompiledSchema;
    let payloads: unknown[] = [];

    before(async function () {
      skipUnlessClientInstalled(this);
      // The client's own payload schema, compiled with its own TypeBox, checks every payload here too.
      schema = clientPayloadSchema();
      t = await startTestServer({ STACKHOOKS_V1_PORT: '0' });
      predicateDir = await makeTempDir('stackhooks-v1-client-');
      observer = await startClientObserver({
        v1Port: t.server.v1Port!,
        predicateDir,
        predicates: [
          {
            name: 'transfers-and-locks',
            version: 1,
            chain: 'stacks',
            networks: { mainnet: { if_this: { scope: 'stx_event', actions: ['transfer', 'lock'] } } },
          },
        ],
      });
      payloads = observer.payloads;
    });

    after(async () => {
      observer?.kill();
      await t?.stop();
      if (predicateDir) await rm(predicateDir, { recursive: true, force: true });
    });

    async function listed(): Promise<{ uuid: string; enabled: boolean; status: { type: string } }[]> {
      const response = await fetch(`http://127.0.0.1:${t.server.v1Port}/v1/chainhooks`);
      return ((await response.json()) as { result: [] }).result;
    }

    it('registers its predicate once it found /ping', async () => {
      const predicates = await listed();
      expect(predicates).to.have.length(1);
      expect(predicates[0]!.enabled).to.equal(true);
    });

    it('receives payloads for recorded traffic, reorgs included, that its own schema accepts', async () => {
      await runReplay(fixturePath('stacks-blockchain-api/mainnet-reorg-scenario1.tsv'), {
        to: t.observerUrl,
        rate: 0,
      });
      await untilIngested(t);
      // The recording has 49 transfers and 8 locks on its chains; the client takes a payload only
      // after its schema accepted it (it answers 422 otherwise, which delivery would keep retrying).
      await until(
        () => payloads.some((p) => (p as { rollback: unknown[] }).rollback.length > 0),
        'a rollback',
      );
      for (const payload of payloads) {
        const errors = [...schema.Errors(payload)].slice(0, 3);
        expect(errors, JSON.stringify(errors)).to.deep.equal([]);
      }
      type Shown = {
        apply: {
          transactions: {
            operations: { type: string }[];
            metadata: { receipt: { events: { type: string }[] } };
          }[];
        }[];
      };
      const transactions = payloads.flatMap((p) => (p as Shown).apply.flatMap((b) => b.transactions));
      const types = new Set(transactions.flatMap((tx) => tx.metadata.receipt.events.map((e) => e.type)));
      expect([...types]).to.include.members(['STXTransferEvent', 'STXLockEvent']);
      // The same movements as Rosetta operations, which the schema above accepted.
      const operations = new Set(transactions.flatMap((tx) => tx.operations.map((op) => op.type)));
      expect([...operations]).to.include.members(['DEBIT', 'CREDIT', 'LOCK']);
    });

    it('finds its predicate active on its health checks and keeps it registered', async () => {
      const before = await listed();
      await new Promise((resolve) => setTimeout(resolve, 500));
      const after = await listed();
      expect(after.map((p) => p.uuid)).to.deep.equal(before.map((p) => p.uuid));
      expect(after[0]!.status.type).to.equal('streaming');
    });

    it('deregisters its predicate on close', async () => {
      await observer!.close();
      expect(await listed()).to.deep.equal([]);
    });
  },
);
