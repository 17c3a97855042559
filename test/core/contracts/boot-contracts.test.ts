import { expect } from 'chai';
import { decodeTransaction } from '../../../core/stacks-codec/decode-transaction.js';
import type { ContractAbi } from '../../../core/chain/contract-abi.js';
import type { NodeBlock } from '../../../core/stacks-codec/node-block.js';
import { BOOT_CONTRACT_NAMES, bootContractAbi } from '../../../core/contracts/boot-contracts.js';
import { describeWithFixtures, readReplayTsv } from '../../support/fixtures.js';

const MAINNET_BOOT = 'SP000000000000000000002Q6VF78';
const TESTNET_BOOT = 'ST000000000000000000002AMW42H';

describe('bootContractAbi', () => {
  it("gives pox-4's ABI at the boot address of each network", () => {
    for (const [network, address] of [
      ['mainnet', MAINNET_BOOT],
      ['testnet', TESTNET_BOOT],
    ] as const) {
      const abi = bootContractAbi(`${address}.pox-4`, network);
      const stackStx = abi?.functions.find((f) => f.name === 'stack-stx');
      expect(stackStx?.args.map((a) => a.name)).to.deep.equal([
        'amount-ustx',
        'pox-addr',
        'start-burn-ht',
        'lock-period',
        'signer-sig',
        'signer-key',
        'max-amount',
        'auth-id',
      ]);
    }
  });

  it("knows nothing of a boot contract's name at the other network's boot address", () => {
    expect(bootContractAbi(`${TESTNET_BOOT}.pox-4`, 'mainnet')).to.equal(undefined);
    expect(bootContractAbi(`${MAINNET_BOOT}.bns`, 'testnet')).to.equal(undefined);
  });

  it('knows nothing of a contract outside the boot address, or of an unknown boot name', () => {
    expect(bootContractAbi('SP3K8BC0PPEVCV7NZ6QSRWPQ2JE9E5B6N3PA0KBR9.pox-4', 'mainnet')).to.equal(undefined);
    expect(bootContractAbi(`${MAINNET_BOOT}.not-a-boot-contract`, 'mainnet')).to.equal(undefined);
    expect(bootContractAbi(MAINNET_BOOT, 'mainnet')).to.equal(undefined);
  });

  it('ships every boot contract a node instantiates without a deploy', () => {
    expect(BOOT_CONTRACT_NAMES).to.include.members([
      'pox',
      'pox-2',
      'pox-3',
      'pox-4',
      'bns',
      'costs',
      'costs-2',
      'costs-3',
      'cost-voting',
      'lockup',
      'signers',
      'signers-voting',
    ]);
  });
});

describeWithFixtures('bootContractAbi against a mainnet node', () => {
  it('holds the functions the mainnet node reported for each boot contract of its genesis block', async () => {
    const reported = new Map<string, ContractAbi>();
    for await (const request of readReplayTsv('stacks-blockchain-api/mainnet-block0.tsv')) {
      if (request.path !== '/new_block') continue;
      for (const tx of (request.body as NodeBlock).transactions) {
        const abi = tx.contract_abi ?? tx.contract_interface;
        if (!abi || tx.raw_tx === '0x00') continue;
        const { payload } = decodeTransaction(tx.raw_tx, { network: 'mainnet' });
        if (payload.type === 'contract_deploy') reported.set(payload.contract_identifier, abi as ContractAbi);
      }
    }
    // The genesis block deploys pox, lockup, costs, cost-voting and bns (and genesis, which runs once
    // and exports nothing to call).
    const compared = [...reported].filter(([id]) => !id.endsWith('.genesis'));
    expect(compared.map(([id]) => id.split('.')[1])).to.have.members([
      'pox',
      'lockup',
      'costs',
      'cost-voting',
      'bns',
    ]);
    for (const [id, abi] of compared) {
      expect(bootContractAbi(id, 'mainnet')?.functions, id).to.deep.equal(abi.functions);
    }
  });
});
