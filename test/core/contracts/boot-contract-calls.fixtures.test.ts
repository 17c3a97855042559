import { expect } from 'chai';
import { getTypeString, type ClarityAbiType } from '@stacks/transactions';
import { decodeTransaction } from '../../../core/stacks-codec/decode-transaction.js';
import type { ContractCallArg } from '../../../core/chain/transaction-payload.js';
import type { ContractAbi } from '../../../core/chain/contract-abi.js';
import type { NodeBlock } from '../../../core/stacks-codec/node-block.js';
import { describeWithFixtures, readReplayTsv } from '../../support/fixtures.js';
import { startLiveStack } from '../../support/live-stack.js';

const BOOT = 'SP000000000000000000002Q6VF78';

/** The mainnet recordings that call boot contracts without showing the genesis block that deploys them. */
const RECORDINGS = [
  'stacks-blockchain-api/mainnet-reorg-scenario1.tsv',
  'stacks-blockchain-api/mainnet-out-of-order-microblock.tsv',
  'stacks-blockchain-api/poisonmicroblock.tsv',
];

async function nodeBlocks(file: string): Promise<NodeBlock[]> {
  const blocks: NodeBlock[] = [];
  for await (const request of readReplayTsv(file)) {
    if (request.path === '/new_block') blocks.push(request.body as NodeBlock);
  }
  return blocks;
}

/** The boot-contract calls a recording holds (`block hash txid` → argument count), read from the raw transactions. */
function bootCalls(blocks: NodeBlock[]): Map<string, number> {
  const calls = new Map<string, number>();
  for (const block of blocks) {
    for (const tx of block.transactions) {
      if (tx.raw_tx === '0x00') continue;
      const { payload } = decodeTransaction(tx.raw_tx, { network: 'mainnet' });
      if (payload.type === 'contract_call' && payload.contract_identifier.startsWith(`${BOOT}.`))
        calls.set(`${block.index_block_hash} ${tx.txid}`, payload.args.length);
    }
  }
  return calls;
}

/** The ABIs the mainnet node reported when its genesis block deployed the boot contracts. */
async function genesisAbis(): Promise<Map<string, ContractAbi>> {
  const abis = new Map<string, ContractAbi>();
  for (const block of await nodeBlocks('stacks-blockchain-api/mainnet-block0.tsv')) {
    for (const tx of block.transactions) {
      const abi = tx.contract_abi ?? tx.contract_interface;
      if (!abi || tx.raw_tx === '0x00') continue;
      const { payload } = decodeTransaction(tx.raw_tx, { network: 'mainnet' });
      if (payload.type === 'contract_deploy') abis.set(payload.contract_identifier, abi as ContractAbi);
    }
  }
  return abis;
}

describeWithFixtures(
  'calls to boot contracts in the mainnet recordings, with no node configured',
  function () {
    this.timeout(120_000);

    it('go out with every argument named and typed as the genesis block declared it', async () => {
      const declared = await genesisAbis();
      const expected = new Map<string, number>();
      const checked = new Map<string, number>();
      for (const file of RECORDINGS) {
        const blocks = await nodeBlocks(file);
        for (const [txid, count] of bootCalls(blocks)) expected.set(txid, count);
        // Each recording on its own, as a service attached at the tip sees it: no deploy of pox or bns.
        const stack = await startLiveStack('mainnet');
        try {
          await stack.register({
            filters: { events: [{ type: 'contract_call' }] },
            options: { enable_on_registration: true, decode_clarity_values: true },
          });
          await stack.ingest(...blocks);
          for (const payload of stack.queue.all()) {
            for (const block of payload.body.event.apply) {
              for (const tx of block.transactions) {
                for (const op of tx.operations) {
                  if (op.type !== 'contract_call' || !op.metadata.contract_identifier.startsWith(`${BOOT}.`))
                    continue;
                  const { contract_identifier, function_name } = op.metadata;
                  const args = op.metadata.args as ContractCallArg[];
                  const fn = declared
                    .get(contract_identifier)
                    ?.functions.find((f) => f.name === function_name);
                  expect(fn, `${contract_identifier}::${function_name}`).to.not.equal(undefined);
                  expect(
                    args.map(({ name, type }) => ({ name, type })),
                    `${tx.transaction_identifier.hash} ${function_name}`,
                  ).to.deep.equal(
                    fn!.args.map((a) => ({ name: a.name, type: getTypeString(a.type as ClarityAbiType) })),
                  );
                  checked.set(
                    `${block.block_identifier.hash} ${tx.transaction_identifier.hash}`,
                    args.length,
                  );
                }
              }
            }
          }
        } finally {
          await stack.stop();
        }
      }
      // Every call went out and was checked: pox `stack-stx` in the reorg recording (its forks repeat
      // some), bns names in the other two; 60 arguments, the poison block's second copy aside.
      expect(checked).to.deep.equal(expected);
      expect([...checked.values()].reduce((a, b) => a + b, 0)).to.equal(60);
    });
  },
);
