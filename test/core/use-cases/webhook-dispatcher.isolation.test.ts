import { expect } from 'chai';
import { startTestServer, type TestServer } from '../../support/api-server.js';
import { expectSchema, schemas } from '../../support/client-schemas.js';
import type { HookRecord } from '../../../core/hooks/record.js';
import {
  deliveries,
  postBlock,
  registerTransferHook,
  transferBlocks,
  until,
} from '../../support/delivery-server.js';
import { startTestReceiver, type Received, type TestReceiver } from '../../support/test-receiver.js';

/** The block heights each hook received, in arrival order, repeats of the same payload folded. */
function heightsByHook(received: readonly Received[]): Map<string, number[]> {
  const byHook = new Map<string, number[]>();
  for (const request of received) {
    const body = JSON.parse(request.body);
    const heights = byHook.get(body.chainhook.uuid) ?? [];
    const height = body.event.apply[0].block_identifier.index as number;
    if (heights.at(-1) !== height) heights.push(height);
    byHook.set(body.chainhook.uuid, heights);
  }
  return byHook;
}

describe('WebhookDispatcher keeping hooks apart', function () {
  this.timeout(90_000);
  let t: TestServer | undefined;
  let receivers: TestReceiver[] = [];
  const receiver = async () => {
    const started = await startTestReceiver();
    receivers.push(started);
    return started;
  };
  afterEach(async () => {
    // Receivers first: closing them ends the attempts that hang, so the server stops at once.
    for (const r of receivers) await r.close();
    receivers = [];
    await t?.stop();
    t = undefined;
  });

  it('delivers every healthy hook in order while receivers that hang, answer late, drip, reset and fail hold their own attempts', async () => {
    t = await startTestServer({
      STACKHOOKS_DELIVERY_CONCURRENCY: '4',
      STACKHOOKS_DELIVERY_SLOW_CONCURRENCY: '32',
      STACKHOOKS_DELIVERY_SLOW_AFTER: '200ms',
      STACKHOOKS_DELIVERY_TIMEOUT: '60s',
      STACKHOOKS_RETRY_SCHEDULE: '0,100ms,100ms,100ms,100ms,100ms',
    });
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const [hanging, late, dripping, resetting, failing, healthy] = await Promise.all(
      Array.from({ length: 6 }, receiver),
    );
    hanging.reply(() => 'hang');
    // Late receivers answer 200 only once the healthy hooks have everything, then 300 ms late.
    late.reply(() => ({ status: 200, after: released, delayMs: 300 }));
    dripping.reply(() => 'drip');
    resetting.reply(() => ({ reset: true, afterMs: 300 }));
    failing.reply(() => ({ status: 500 }));
    const bad = [hanging, late, dripping, resetting, failing];
    const lateHooks: string[] = [];
    for (const r of bad) {
      for (let i = 0; i < 2; i++) {
        const uuid = await registerTransferHook(t, r.url(`/bad/${i}`));
        if (r === late) lateHooks.push(uuid);
      }
    }
    const healthyHooks: string[] = [];
    for (let i = 0; i < 4; i++) healthyHooks.push(await registerTransferHook(t, healthy.url(`/ok/${i}`)));
    const chain = await transferBlocks(4);
    for (const block of chain) await postBlock(t, block);
    const heights = chain.map((b) => b.block_height);

    // 10 bad hooks, 4 normal slots: without lanes the bad receivers hold every slot for 60 s.
    await healthy.waitFor(healthyHooks.length * chain.length, 30_000);
    const healthyHeights = heightsByHook(healthy.received);
    for (const uuid of healthyHooks) expect(healthyHeights.get(uuid), uuid).to.deep.equal(heights);
    expect(healthy.received).to.have.length(healthyHooks.length * chain.length);
    // The late receivers have not answered anything yet: their attempts were still waiting.
    expect(late.received.length).to.be.at.most(lateHooks.length);

    release();
    await until(() =>
      lateHooks.every((uuid) => heightsByHook(late.received).get(uuid)?.length === chain.length),
    );
    for (const uuid of lateHooks) expect(heightsByHook(late.received).get(uuid)).to.deep.equal(heights);
    const log = await deliveries(t, lateHooks[0]);
    await until(async () =>
      (await deliveries(t!, lateHooks[0])).results.every((r: { state: string }) => r.state === 'delivered'),
    );
    const attempts = log.results.flatMap((r: { attempts: { lane: string }[] }) => r.attempts);
    expect(attempts.map((a: { lane: string }) => a.lane)).to.include('slow');
    const counters = t.server.stackhooks.dispatcher.counters;
    expect(counters.movedToSlowLane).to.be.at.least(lateHooks.length);
    expect(counters.now.slowHooks).to.be.at.least(lateHooks.length);
    // The hook record says so too, in a stackhooks extension the official client's schema accepts.
    const lateRecord = await t.client.getChainhook(lateHooks[0]);
    expectSchema(schemas.hook, lateRecord);
    expect(lateRecord).to.have.nested.property('delivery.receiver.lane', 'slow');
    expect(lateRecord).to.have.nested.property(
      'delivery.receiver.circuit.origin',
      new URL(late.url()).origin,
    );
  });

  it('opens the circuit of an origin that stops answering, holds its hooks with the reason, and closes it after a probe is answered', async () => {
    t = await startTestServer({
      STACKHOOKS_DELIVERY_SLOW_AFTER: '200ms',
      STACKHOOKS_DELIVERY_TIMEOUT: '300ms',
      STACKHOOKS_DELIVERY_CIRCUIT_OPEN: '600ms',
      STACKHOOKS_RETRY_SCHEDULE: Array.from({ length: 40 }, (_, i) => (i === 0 ? '0' : '50ms')).join(','),
    });
    const dead = await receiver();
    dead.reply(() => 'hang');
    const hooks: string[] = [];
    for (let i = 0; i < 3; i++) hooks.push(await registerTransferHook(t, dead.url(`/h/${i}`)));
    const chain = await transferBlocks(2);
    for (const block of chain) await postBlock(t, block);
    const stackhooks = t.server.stackhooks;
    await until(() => stackhooks.dispatcher.counters.circuitsOpened >= 1);
    // While it is open, due payloads wait unsent, and the log says why.
    await until(async () => {
      for (const uuid of hooks) {
        const { results } = await deliveries(t!, uuid);
        if (
          results.some((r: { held_reason: string | null }) =>
            /circuit for http:\/\/127\.0\.0\.1:\d+ is open/.test(r.held_reason ?? ''),
          )
        )
          return true;
      }
      return false;
    });
    expect(stackhooks.dispatcher.counters.heldForCircuit).to.be.at.least(1);
    // Every hook of the origin shows its circuit open (or probing), with the failures and the time
    // of the next probe.
    for (const uuid of hooks) {
      const record = await t.client.getChainhook(uuid);
      expectSchema(schemas.hook, record);
      const circuit = (record as unknown as HookRecord).delivery?.receiver?.circuit;
      expect(circuit?.state).to.be.oneOf(['open', 'half_open']);
      expect(circuit?.failures).to.be.at.least(3);
      expect(circuit?.open_until).to.be.a('number');
    }
    // Once open time is over it half-opens for one probe; the probe gets no answer either, so the
    // circuit opens again, and the requests the dead origin got are the probes, not every retry.
    const circuitOf = async (uuid: string) =>
      ((await t!.client.getChainhook(uuid)) as unknown as HookRecord).delivery?.receiver?.circuit;
    await until(async () => (await circuitOf(hooks[0]))?.state === 'half_open');
    await until(() => stackhooks.dispatcher.counters.circuitsOpened >= 2);
    // Each hook's first attempt, a probe per opening, and at most one retry a hook that started
    // before the circuit opened; retrying on schedule would have sent about twice as many.
    const { circuitsOpened } = stackhooks.dispatcher.counters;
    expect(dead.received.length).to.be.at.most(2 * hooks.length + circuitsOpened);

    dead.reply(() => ({ status: 200 }));
    const last = chain[1].block_height;
    await until(() => hooks.every((uuid) => heightsByHook(dead.received).get(uuid)?.at(-1) === last));
    const heights = heightsByHook(dead.received);
    for (const uuid of hooks) expect(heights.get(uuid)).to.deep.equal(chain.map((b) => b.block_height));
    expect(stackhooks.dispatcher.counters.circuitsClosed).to.be.at.least(1);
    for (const uuid of hooks) {
      await until(async () =>
        (await deliveries(t!, uuid)).results.every((r: { state: string }) => r.state === 'delivered'),
      );
      const { results } = await deliveries(t, uuid);
      expect(results.map((r: { held_reason: string | null }) => r.held_reason)).to.deep.equal([null, null]);
      const record = (await t.client.getChainhook(uuid)) as unknown as HookRecord;
      expect(record.delivery?.receiver?.circuit.state ?? 'closed').to.equal('closed');
    }
  });

  it('sends 70 hooks to one origin at once without a payload waiting for a socket, timing out and arriving twice', async () => {
    t = await startTestServer({
      STACKHOOKS_DELIVERY_CONCURRENCY: '100',
      STACKHOOKS_DELIVERY_SLOW_AFTER: '5s',
      STACKHOOKS_DELIVERY_TIMEOUT: '1500ms',
    });
    const slowish = await receiver();
    slowish.reply(() => ({ status: 200, delayMs: 1000 }));
    const hooks: string[] = [];
    for (let i = 0; i < 70; i++) hooks.push(await registerTransferHook(t, slowish.url(`/h/${i}`)));
    const [block] = await transferBlocks(1);
    await postBlock(t, block);
    await slowish.waitFor(70);
    for (const uuid of hooks) {
      await until(async () => (await deliveries(t!, uuid)).results[0]?.state === 'delivered');
    }
    // Every payload arrived once, and every attempt was answered.
    const ids = slowish.received.map((r) => r.headers['webhook-id']);
    expect(new Set(ids).size).to.equal(70);
    expect(ids).to.have.length(70);
    for (const uuid of hooks) {
      const [record] = (await deliveries(t, uuid)).results;
      expect(record.attempts.map((a: { status_code: number }) => a.status_code)).to.deep.equal([200]);
    }
  });
});
