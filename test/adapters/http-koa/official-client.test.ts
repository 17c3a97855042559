import { ChainhooksHttpError, type ChainhooksClient } from '@hirosystems/chainhooks-client';
import { expect } from 'chai';
import { sampleDefinition } from '../../support/definitions.js';
import { startTestServer, type TestServer } from '../../support/api-server.js';
import { expectSchema, schemas } from '../../support/client-schemas.js';

async function httpStatusOf(call: Promise<unknown>): Promise<number> {
  try {
    await call;
  } catch (err) {
    if (err instanceof ChainhooksHttpError) return err.status;
    throw err;
  }
  throw new Error('expected the call to fail');
}

describe('the official @hirosystems/chainhooks-client against the API', () => {
  let t: TestServer;
  let client: ChainhooksClient;

  beforeEach(async () => {
    t = await startTestServer();
    client = t.client;
  });
  afterEach(async () => t.stop());

  it('registers a hook and returns a record the client schema accepts', async () => {
    const record = await client.registerChainhook(sampleDefinition());
    expectSchema(schemas.hook, record);
    expect(record.definition).to.deep.equal(sampleDefinition());
    expect(record.status).to.include({
      status: 'new',
      enabled: false,
      evaluated_block_count: 0,
      occurrence_count: 0,
    });
  });

  it('enables at registration when options.enable_on_registration is true', async () => {
    const record = await client.registerChainhook(
      sampleDefinition({ options: { enable_on_registration: true } }),
    );
    expect(record.status.enabled).to.equal(true);
  });

  it('lists hooks oldest first with offset and limit pagination', async () => {
    const uuids: string[] = [];
    for (let i = 0; i < 5; i++)
      uuids.push((await client.registerChainhook(sampleDefinition({ name: `h${i}` }))).uuid);
    const first = await client.getChainhooks({ limit: 2 });
    expectSchema(schemas.page, first);
    expect(first).to.include({ limit: 2, offset: 0, total: 5 });
    expect(first.results.map((r) => r.uuid)).to.deep.equal(uuids.slice(0, 2));
    const last = await client.getChainhooks({ offset: 4, limit: 2 });
    expect(last.results.map((r) => r.uuid)).to.deep.equal(uuids.slice(4));
    const all = await client.getChainhooks();
    expect(all).to.include({ limit: 20, offset: 0, total: 5 });
  });

  it('gets one hook by uuid', async () => {
    const { uuid } = await client.registerChainhook(sampleDefinition());
    const record = await client.getChainhook(uuid);
    expectSchema(schemas.hook, record);
    expect(record.uuid).to.equal(uuid);
  });

  it('updates a hook, replacing filters.events whole', async () => {
    const { uuid } = await client.registerChainhook(sampleDefinition());
    const updated = await client.updateChainhook(uuid, {
      name: 'renamed',
      filters: { events: [{ type: 'stx_event' }] },
    });
    expectSchema(schemas.hook, updated);
    expect(updated.definition.name).to.equal('renamed');
    expect(updated.definition.filters.events).to.deep.equal([{ type: 'stx_event' }]);
    expect((await client.getChainhook(uuid)).definition.name).to.equal('renamed');
  });

  it('enables and disables one hook', async () => {
    const { uuid } = await client.registerChainhook(sampleDefinition());
    await client.enableChainhook(uuid, true);
    expect((await client.getChainhook(uuid)).status.enabled).to.equal(true);
    await client.enableChainhook(uuid, false);
    expect((await client.getChainhook(uuid)).status.enabled).to.equal(false);
  });

  it('bulk enables by uuids', async () => {
    const a = await client.registerChainhook(sampleDefinition());
    const b = await client.registerChainhook(sampleDefinition());
    const res = await client.bulkEnableChainhooks({ enabled: true, filters: { uuids: [a.uuid] } });
    expectSchema(schemas.bulk, res);
    expect(res.updated_uuids).to.deep.equal([a.uuid]);
    expect((await client.getChainhook(b.uuid)).status.enabled).to.equal(false);
  });

  it('bulk enables by webhook_url', async () => {
    const url = 'https://receiver.example.org/hook';
    const a = await client.registerChainhook(sampleDefinition({ action: { type: 'http_post', url } }));
    await client.registerChainhook(sampleDefinition());
    const res = await client.bulkEnableChainhooks({ enabled: true, filters: { webhook_url: url } });
    expect(res.updated_uuids).to.deep.equal([a.uuid]);
  });

  it('bulk enables by statuses', async () => {
    const a = await client.registerChainhook(sampleDefinition());
    const res = await client.bulkEnableChainhooks({ enabled: true, filters: { statuses: ['new'] } });
    expect(res.updated_uuids).to.deep.equal([a.uuid]);
    const none = await client.bulkEnableChainhooks({ enabled: true, filters: { statuses: ['streaming'] } });
    expect(none.updated_uuids).to.deep.equal([]);
  });

  it('bulk enables with combined filters as an AND', async () => {
    const url = 'https://receiver.example.org/hook';
    const a = await client.registerChainhook(sampleDefinition({ action: { type: 'http_post', url } }));
    const b = await client.registerChainhook(sampleDefinition({ action: { type: 'http_post', url } }));
    await client.registerChainhook(sampleDefinition());
    const res = await client.bulkEnableChainhooks({
      enabled: true,
      filters: { uuids: [a.uuid, b.uuid], webhook_url: url, statuses: ['new'] },
    });
    expect(res.updated_uuids.sort()).to.deep.equal([a.uuid, b.uuid].sort());
    const narrowed = await client.bulkEnableChainhooks({
      enabled: false,
      filters: { uuids: [a.uuid], webhook_url: 'https://other.example.org/' },
    });
    expect(narrowed.updated_uuids).to.deep.equal([]);
  });

  it('deletes a hook, after which it is a 404', async () => {
    const { uuid } = await client.registerChainhook(sampleDefinition());
    await client.deleteChainhook(uuid);
    expect(await httpStatusOf(client.getChainhook(uuid))).to.equal(404);
    expect(await httpStatusOf(client.deleteChainhook(uuid))).to.equal(404);
  });

  it('rotates, reads and deletes the consumer secret', async () => {
    const none = await client.getConsumerSecret();
    expectSchema(schemas.secret, none);
    expect(none.secret).to.equal(null);
    const rotated = await client.rotateConsumerSecret();
    expectSchema(schemas.secret, rotated);
    expect(rotated.secret).to.match(/^[0-9a-f]{64}$/);
    // The same key for Standard Webhooks libraries, beside the hex the client's schema requires.
    const { standard_webhooks_secret } = rotated as typeof rotated & { standard_webhooks_secret: string };
    expect(standard_webhooks_secret).to.equal(
      `whsec_${Buffer.from(rotated.secret!, 'hex').toString('base64')}`,
    );
    expect((await client.getConsumerSecret()).secret).to.equal(rotated.secret);
    const again = await client.rotateConsumerSecret();
    expect(again.secret).to.not.equal(rotated.secret);
    await client.deleteConsumerSecret();
    expect((await client.getConsumerSecret()).secret).to.equal(null);
  });

  it('answers evaluate with 404 while the archive is empty', async () => {
    const { uuid } = await client.registerChainhook(sampleDefinition());
    expect(await httpStatusOf(client.evaluateChainhook(uuid, { block_height: 100 }))).to.equal(404);
    expect(
      await httpStatusOf(client.evaluateChainhook(uuid, { index_block_hash: '0x' + 'ab'.repeat(32) })),
    ).to.equal(404);
  });

  it('reports the status without a key', async () => {
    const status = await t.clientFor('').getStatus();
    expectSchema(schemas.status, status);
    expect(status.status).to.equal('ready');
  });

  it('refuses every /me call with a wrong key as 401', async () => {
    const stranger = t.clientFor('not-a-registered-key-at-all');
    expect(await httpStatusOf(stranger.getChainhooks())).to.equal(401);
    expect(await httpStatusOf(stranger.registerChainhook(sampleDefinition()))).to.equal(401);
    expect(await httpStatusOf(stranger.getConsumerSecret())).to.equal(401);
  });
});
