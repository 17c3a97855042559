import { createHmac } from 'node:crypto';
import { expect } from 'chai';
import { startReceiver, type Receiver } from '../../../apps/cli/receive-command.js';
import { standardWebhooksSecret } from '../../../core/delivery/sign-payload.js';
import { send } from '../../support/raw-http.js';

const SECRET = 'a1'.repeat(32);
const SENDER = 'SP2J6ZY48GV1EZ5V2V5RB9MP66SW86PYKKNRV9EJ7';

/** A Standard Webhooks signature, computed here without the project's code. */
function sign(secretHex: string, id: string, timestamp: number, body: string): string {
  const mac = createHmac('sha256', Buffer.from(secretHex, 'hex')).update(`${id}.${timestamp}.${body}`);
  return `v1,${mac.digest('base64')}`;
}

function block(height: number, hashByte: string, transactions: unknown[]) {
  return {
    block_identifier: { index: height, hash: `0x${hashByte.repeat(32)}` },
    parent_block_identifier: { index: height - 1, hash: `0x${'00'.repeat(32)}` },
    timestamp: 1730000000,
    transactions,
  };
}

const payload = {
  chainhook: { uuid: '6f1e4a52-7c1d-4a7e-9b0e-2d6f1b3c9a10', name: 'token-watch' },
  event: {
    chain: 'stacks',
    network: 'mainnet',
    rollback: [block(150001, 'ee', [])],
    apply: [
      block(150001, 'ab', [
        {
          transaction_identifier: { hash: `0x${'5d'.repeat(32)}` },
          metadata: { type: 'contract_call', status: 'success', sender_address: SENDER },
          operations: [
            {
              operation_identifier: { index: 0 },
              type: 'fee',
              status: 'success',
              account: { address: SENDER },
              amount: { value: '-180', currency: { symbol: 'STX', decimals: 6 } },
              metadata: { sponsored: false },
            },
            {
              operation_identifier: { index: 1 },
              type: 'contract_call',
              status: 'success',
              account: { address: SENDER },
              metadata: {
                contract_identifier: `${SENDER}.token`,
                function_name: 'transfer',
                args: [{ hex: '0x01', repr: 'u100', name: 'amount', type: 'uint128' }],
              },
            },
            {
              operation_identifier: { index: 2 },
              type: 'token_transfer',
              status: 'success',
              account: { address: SENDER },
              amount: {
                value: '-100',
                currency: {
                  symbol: '',
                  decimals: 0,
                  metadata: { asset_identifier: `${SENDER}.token::tok`, token_type: 'ft' },
                },
              },
            },
          ],
        },
      ]),
    ],
  },
};

describe('stackhooks receive', () => {
  let receiver: Receiver | undefined;
  let printed: string[];
  const start = async (secret?: string) => {
    printed = [];
    receiver = await startReceiver({ port: 0, secret, out: (text) => printed.push(text) });
    return `http://127.0.0.1:${receiver.port}`;
  };
  const deliver = (base: string, headers: Record<string, string>, body = JSON.stringify(payload)) =>
    send(base, 'POST', '/hook', { body, headers });
  const now = () => Math.floor(Date.now() / 1000);

  afterEach(async () => {
    await receiver?.close();
    receiver = undefined;
  });

  it('answers 200 to a correctly signed delivery and prints hook, heights and "signature ok"', async () => {
    const base = await start(SECRET);
    const body = JSON.stringify(payload);
    const ts = now();
    const res = await deliver(
      base,
      {
        'webhook-id': 'p-1',
        'webhook-timestamp': String(ts),
        'webhook-signature': sign(SECRET, 'p-1', ts, body),
      },
      body,
    );
    expect(res.status).to.equal(200);
    const text = printed.join('\n');
    expect(text).to.include('signature ok');
    expect(text).to.include('token-watch');
    expect(text).to.include('6f1e4a52-7c1d-4a7e-9b0e-2d6f1b3c9a10');
    expect(text).to.match(/apply +#150001 0xabababab/);
    expect(text).to.match(/rollback +#150001 0xeeeeeeee/);
  });

  it('prints each transaction with its operations, amounts in whole units and decoded call args', async () => {
    const base = await start();
    await deliver(base, { 'webhook-id': 'p-2', 'webhook-timestamp': String(now()) });
    const text = printed.join('\n');
    expect(text).to.match(new RegExp(`tx 0x5d5d5d5d\\S* contract_call success from ${SENDER}`));
    expect(text).to.include(`0 fee ${SENDER} -0.00018 STX`);
    expect(text).to.include(`1 contract_call ${SENDER} ${SENDER}.token.transfer(amount: u100)`);
    expect(text).to.include(`2 token_transfer ${SENDER} -100 ${SENDER}.token::tok`);
  });

  it('answers 401 and prints "signature INVALID" for a signature made with another secret', async () => {
    const base = await start(SECRET);
    const body = JSON.stringify(payload);
    const ts = now();
    const res = await deliver(
      base,
      {
        'webhook-id': 'p-3',
        'webhook-timestamp': String(ts),
        'webhook-signature': sign('b2'.repeat(32), 'p-3', ts, body),
      },
      body,
    );
    expect(res.status).to.equal(401);
    expect(printed.join('\n')).to.include('signature INVALID');
  });

  it('answers 401 to a correctly signed delivery whose timestamp is over five minutes old', async () => {
    const base = await start(SECRET);
    const body = JSON.stringify(payload);
    const ts = now() - 301;
    const res = await deliver(
      base,
      {
        'webhook-id': 'p-4',
        'webhook-timestamp': String(ts),
        'webhook-signature': sign(SECRET, 'p-4', ts, body),
      },
      body,
    );
    expect(res.status).to.equal(401);
    expect(printed.join('\n')).to.match(/signature INVALID \(timestamp 30\d s old\)/);
  });

  it('accepts a delivery when any one of several listed signatures matches', async () => {
    const base = await start(SECRET);
    const body = JSON.stringify(payload);
    const ts = now();
    const signatures = `${sign('b2'.repeat(32), 'p-5', ts, body)} ${sign(SECRET, 'p-5', ts, body)}`;
    const res = await deliver(
      base,
      { 'webhook-id': 'p-5', 'webhook-timestamp': String(ts), 'webhook-signature': signatures },
      body,
    );
    expect(res.status).to.equal(200);
  });

  it('answers 401 to an unsigned delivery when a secret is given', async () => {
    const base = await start(SECRET);
    const res = await deliver(base, { 'webhook-id': 'p-6', 'webhook-timestamp': String(now()) });
    expect(res.status).to.equal(401);
    expect(printed.join('\n')).to.include('signature INVALID (no webhook-signature header)');
  });

  it('answers 200 and prints "unsigned" without a secret', async () => {
    const base = await start();
    const res = await deliver(base, { 'webhook-id': 'p-7', 'webhook-timestamp': String(now()) });
    expect(res.status).to.equal(200);
    expect(printed.join('\n')).to.include('unsigned');
  });

  it('prints a body that is not JSON instead of failing', async () => {
    const base = await start();
    const res = await deliver(base, {}, 'not json');
    expect(res.status).to.equal(200);
    expect(printed.join('\n')).to.include('body is not JSON');
  });

  it('checks signatures with the secret in its whsec_ form as with its hex form', async () => {
    const base = await start(standardWebhooksSecret(SECRET));
    const body = JSON.stringify(payload);
    const ts = now();
    const headers = { 'webhook-id': 'p-9', 'webhook-timestamp': String(ts) };
    expect(
      (await deliver(base, { ...headers, 'webhook-signature': sign(SECRET, 'p-9', ts, body) }, body)).status,
    ).to.equal(200);
    expect(printed.join('\n')).to.include('signature ok');
    const other = sign('ab'.repeat(32), 'p-9', ts, body);
    expect((await deliver(base, { ...headers, 'webhook-signature': other }, body)).status).to.equal(401);
  });

  it('refuses a secret that is neither whsec_ base64 nor hex', async () => {
    for (const secret of ['not-hex', 'whsec_not base64!']) {
      let error: unknown;
      await startReceiver({ port: 0, secret, out: () => undefined }).catch((err) => (error = err));
      expect(String(error), secret).to.match(
        /--secret must be the consumer secret: standard_webhooks_secret \(whsec_…\) or secret \(hex\)/,
      );
    }
  });
});
