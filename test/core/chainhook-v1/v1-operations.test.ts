import { readFile } from 'node:fs/promises';
import { expect } from 'chai';
import type { TransactionEvent } from '../../../core/chain/transaction-event.js';
import { mutatedRadius, v1Operations } from '../../../core/chainhook-v1/v1-operations.js';
import { describeWithFixtures, fixturePath } from '../../support/fixtures.js';

const A = 'SP2J6ZY48GV1EZ5V2V5RB9MP66SW86PYKKNRV9EJ7';
const B = 'SP3FBR2AGK5H9QBDH3EEN6DF8EK8JY7RX8QJ5SVTE';
const TOKEN = `${A}.coin::coin`;
const NFT = `${B}.art::piece`;
const value = { hex: '0x0100000000000000000000000000000007', repr: 'u7', type: 'uint' };

const stx = {
  symbol: 'STX',
  decimals: 6,
  metadata: { asset_class_identifier: 'STX', asset_identifier: null, standard: 'NONE' },
};
const token = {
  symbol: 'TOKEN',
  decimals: 6,
  metadata: { asset_class_identifier: TOKEN, asset_identifier: null, standard: 'SIP10' },
};
const nft = {
  symbol: NFT,
  decimals: 0,
  metadata: { asset_class_identifier: NFT, asset_identifier: value.hex, standard: 'SIP09' },
};

function event(fields: Record<string, unknown>, index = 0): TransactionEvent {
  return { event_index: index, committed: true, ...fields } as TransactionEvent;
}

describe('v1Operations', () => {
  it('makes a transfer a debit and a credit that point at each other', () => {
    const ops = v1Operations([
      event({ type: 'stx_transfer', sender: A, recipient: B, amount: '25', memo: null }),
    ]);
    expect(ops).to.deep.equal([
      {
        operation_identifier: { index: 0 },
        related_operations: [{ index: 1 }],
        type: 'DEBIT',
        status: 'SUCCESS',
        account: { address: A },
        amount: { value: 25, currency: stx },
      },
      {
        operation_identifier: { index: 1 },
        related_operations: [{ index: 0 }],
        type: 'CREDIT',
        status: 'SUCCESS',
        account: { address: B },
        amount: { value: 25, currency: stx },
      },
    ]);
  });

  it('makes a mint a credit, a burn a debit and a lock a lock, numbered across the events', () => {
    const ops = v1Operations([
      event({ type: 'stx_mint', recipient: A, amount: '1' }),
      event({ type: 'ft_burn', asset_identifier: TOKEN, sender: B, amount: '2' }),
      event({
        type: 'stx_lock',
        locked_address: A,
        locked_amount: '3',
        unlock_height: 9,
        contract_identifier: '',
      }),
      event({ type: 'nft_mint', asset_identifier: NFT, recipient: B, value }),
      event({ type: 'contract_log', contract_identifier: `${A}.coin`, topic: 'print', value }),
      event({ type: 'ft_transfer', asset_identifier: TOKEN, sender: A, recipient: B, amount: '4' }),
    ]);
    expect(
      ops.map((op) => [op.operation_identifier.index, op.type, op.account.address, op.amount.value]),
    ).to.deep.equal([
      [0, 'CREDIT', A, 1],
      [1, 'DEBIT', B, 2],
      [2, 'LOCK', A, 3],
      [3, 'CREDIT', B, 1],
      [4, 'DEBIT', A, 4],
      [5, 'CREDIT', B, 4],
    ]);
    expect(ops.map((op) => op.amount.currency)).to.deep.equal([stx, token, stx, nft, token, token]);
    expect(ops[4]!.related_operations).to.deep.equal([{ index: 5 }]);
    expect(ops[0]).to.not.have.property('related_operations');
  });

  it('gives an amount past 2^53 as the number a JavaScript reader of the exact digits gets', () => {
    const amount = '340282366920938463463374607431768211455';
    const [op] = v1Operations([event({ type: 'ft_mint', asset_identifier: TOKEN, recipient: A, amount })]);
    expect(op!.amount.value).to.equal(JSON.parse(amount));
  });
});

describe('mutatedRadius', () => {
  it('names the asset classes moved and the contracts touched, each once, in the order first met', () => {
    const radius = mutatedRadius([
      event({ type: 'contract_log', contract_identifier: `${B}.market`, topic: 'print', value }),
      event({ type: 'ft_transfer', asset_identifier: TOKEN, sender: A, recipient: B, amount: '4' }),
      event({ type: 'nft_mint', asset_identifier: NFT, recipient: B, value }),
      event({ type: 'ft_mint', asset_identifier: TOKEN, recipient: A, amount: '1' }),
      event({ type: 'stx_mint', recipient: A, amount: '1' }),
    ]);
    expect(radius).to.deep.equal({
      assets: [TOKEN, NFT],
      contracts: [`${B}.market`, `${A}.coin`, `${B}.art`],
    });
  });
});

/** A 1.x receipt event as the stackhooks event it was made from. */
function fromV1(e: { type: string; data: Record<string, string> }, index: number): TransactionEvent {
  const d = e.data;
  switch (e.type) {
    case 'FTTransferEvent':
      return event(
        {
          type: 'ft_transfer',
          asset_identifier: d.asset_identifier,
          sender: d.sender,
          recipient: d.recipient,
          amount: d.amount,
        },
        index,
      );
    case 'SmartContractEvent':
      return event(
        {
          type: 'contract_log',
          contract_identifier: d.contract_identifier,
          topic: d.topic,
          value: { hex: d.raw_value },
        },
        index,
      );
    default:
      throw new Error(`no conversion for ${e.type}`);
  }
}

describeWithFixtures("v1Operations against 1.x's own output", () => {
  it('gives the operations and radii 1.x gave a real testnet transaction with token transfers and prints', async () => {
    const block = JSON.parse(await readFile(fixturePath('chainhook/testnet-107605.json'), 'utf8')) as {
      transactions: {
        operations: unknown[];
        metadata: {
          receipt: {
            events: { type: string; data: Record<string, string> }[];
            mutated_assets_radius: string[];
            mutated_contracts_radius: string[];
          };
        };
      }[];
    };
    const withOperations = block.transactions.filter((tx) => tx.operations.length > 0);
    expect(withOperations).to.have.length.greaterThan(0);
    for (const tx of withOperations) {
      const { receipt } = tx.metadata;
      const events = receipt.events.map(fromV1);
      expect(v1Operations(events)).to.deep.equal(tx.operations);
      const radius = mutatedRadius(events);
      expect(radius.assets).to.have.members(receipt.mutated_assets_radius);
      expect(radius.contracts).to.have.members(receipt.mutated_contracts_radius);
    }
  });
});
