import { ChainhooksHttpError } from '@hirosystems/chainhooks-client';
import { expect } from 'chai';
import { sampleDefinition } from '../../support/definitions.js';
import { startTestServer, type TestServer } from '../../support/api-server.js';

async function statusOf(call: Promise<unknown>): Promise<number> {
  try {
    await call;
    return 200;
  } catch (err) {
    if (err instanceof ChainhooksHttpError) return err.status;
    throw err;
  }
}

describe('owner isolation', () => {
  let t: TestServer;
  beforeEach(async () => {
    t = await startTestServer();
  });
  afterEach(async () => t.stop());

  it('never lets one owner see, change, enable, evaluate or delete another owner’s hook', async () => {
    const alice = t.clientFor((await t.server.stackhooks.keys.issue('alice')).key);
    const bob = t.clientFor((await t.server.stackhooks.keys.issue('bob')).key);
    const { uuid } = await alice.registerChainhook(sampleDefinition());

    expect((await bob.getChainhooks()).total).to.equal(0);
    expect(await statusOf(bob.getChainhook(uuid))).to.equal(404);
    expect(await statusOf(bob.updateChainhook(uuid, { name: 'stolen' }))).to.equal(404);
    expect(await statusOf(bob.enableChainhook(uuid, true))).to.equal(404);
    expect(await statusOf(bob.evaluateChainhook(uuid, { block_height: 1 }))).to.equal(404);
    expect(await statusOf(bob.deleteChainhook(uuid))).to.equal(404);
    const bulk = await bob.bulkEnableChainhooks({ enabled: true, filters: { uuids: [uuid] } });
    expect(bulk.updated_uuids).to.deep.equal([]);

    const record = await alice.getChainhook(uuid);
    expect(record.definition.name).to.equal(sampleDefinition().name);
    expect(record.status.enabled).to.equal(false);
  });

  it('keeps consumer secrets per owner', async () => {
    const alice = t.clientFor((await t.server.stackhooks.keys.issue('alice')).key);
    const bob = t.clientFor((await t.server.stackhooks.keys.issue('bob')).key);
    const { secret } = await alice.rotateConsumerSecret();
    expect((await bob.getConsumerSecret()).secret).to.equal(null);
    await bob.deleteConsumerSecret();
    expect((await alice.getConsumerSecret()).secret).to.equal(secret);
  });

  it('gives two keys of one owner the same hooks', async () => {
    const first = t.clientFor((await t.server.stackhooks.keys.issue('carol')).key);
    const second = t.clientFor((await t.server.stackhooks.keys.issue('carol')).key);
    const { uuid } = await first.registerChainhook(sampleDefinition());
    expect((await second.getChainhook(uuid)).uuid).to.equal(uuid);
  });

  it('stops accepting a key the moment it is revoked', async () => {
    const issued = await t.server.stackhooks.keys.issue('dave');
    const dave = t.clientFor(issued.key);
    await dave.getChainhooks();
    await t.server.stackhooks.keys.revoke(issued.id);
    expect(await statusOf(dave.getChainhooks())).to.equal(401);
  });
});
