import { expect } from 'chai';
import { Cl } from '@stacks/transactions';
import type { ContractCallArg } from '../../../core/chain/transaction-payload.js';
import type { Network } from '../../../core/hooks/definition.js';
import { ChainBuilder, contractCall, TEST_KEYS, addressOf } from '../../support/block-builder.js';
import { startLiveStack } from '../../support/live-stack.js';

const BOOT = { mainnet: 'SP000000000000000000002Q6VF78', testnet: 'ST000000000000000000002AMW42H' };

/** The decoded args of every contract call the live stack delivered, after ingesting one block of `calls`. */
async function deliveredArgs(
  network: Network,
  calls: Parameters<typeof contractCall>[0][],
): Promise<Pick<ContractCallArg, 'name' | 'type' | 'repr'>[][]> {
  const stack = await startLiveStack(network);
  try {
    await stack.register({
      network,
      filters: { events: [{ type: 'contract_call' }] },
      options: { enable_on_registration: true, decode_clarity_values: true },
    });
    const transactions = await Promise.all(
      calls.map((call, nonce) => contractCall({ ...call, nonce, network })),
    );
    await stack.ingest(new ChainBuilder().next({ transactions }));
    const ops = stack.queue
      .all()
      .flatMap((p) => p.body.event.apply)
      .flatMap((b) => b.transactions)
      .flatMap((tx) => tx.operations)
      .filter((op) => op.type === 'contract_call');
    return ops.map((op) =>
      (op.metadata.args as ContractCallArg[]).map(({ name, type, repr }) => ({ name, type, repr })),
    );
  } finally {
    await stack.stop();
  }
}

describe('calls to boot contracts, with no node configured', () => {
  for (const network of ['mainnet', 'testnet'] as const) {
    it(`name and type pox-4 delegate-stx's arguments as declared on ${network}`, async () => {
      const delegate = addressOf(TEST_KEYS.bob, network);
      const [args] = await deliveredArgs(network, [
        {
          contractId: `${BOOT[network]}.pox-4`,
          functionName: 'delegate-stx',
          functionArgs: [Cl.uint(1_000_000), Cl.standardPrincipal(delegate), Cl.none(), Cl.none()],
        },
      ]);
      expect(args).to.deep.equal([
        { name: 'amount-ustx', type: 'uint', repr: 'u1000000' },
        { name: 'delegate-to', type: 'principal', repr: `'${delegate}` },
        { name: 'until-burn-ht', type: '(optional uint)', repr: 'none' },
        {
          name: 'pox-addr',
          type: '(optional (tuple (hashbytes (buff 32)) (version (buff 1))))',
          repr: 'none',
        },
      ]);
    });

    it(`types a bns name-register's buffers as declared, not by their length, on ${network}`, async () => {
      const [args] = await deliveredArgs(network, [
        {
          contractId: `${BOOT[network]}.bns`,
          functionName: 'name-register',
          functionArgs: [
            Cl.bufferFromAscii('btc'),
            Cl.bufferFromAscii('satoshi'),
            Cl.buffer(new Uint8Array(20)),
            Cl.buffer(new Uint8Array(20)),
          ],
        },
      ]);
      expect(args.map(({ name, type }) => `${name} ${type}`)).to.deep.equal([
        'namespace (buff 20)',
        'name (buff 48)',
        'salt (buff 20)',
        'zonefile-hash (buff 20)',
      ]);
      expect(args[0].repr).to.equal('0x627463');
    });
  }

  it("leaves a boot contract's call unnamed when the call's arity is not the function's", async () => {
    const [args] = await deliveredArgs('mainnet', [
      { contractId: `${BOOT.mainnet}.pox-4`, functionName: 'delegate-stx', functionArgs: [Cl.uint(1)] },
    ]);
    expect(args).to.deep.equal([{ name: '', type: 'uint', repr: 'u1' }]);
  });

  it("does not take a mainnet boot contract's ABI for the same name at the testnet boot address", async () => {
    const [args] = await deliveredArgs('mainnet', [
      {
        contractId: `${BOOT.testnet}.pox-4`,
        functionName: 'revoke-delegate-stx',
        functionArgs: [Cl.uint(7)],
      },
    ]);
    expect(args).to.deep.equal([{ name: '', type: 'uint', repr: 'u7' }]);
  });
});
