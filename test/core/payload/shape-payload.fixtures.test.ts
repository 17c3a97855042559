// shapePayload on the real recorded node blocks of ../shared/fixtures, checked against the client's schema.
import { expect } from 'chai';
import type { NormalizedBlock } from '../../../core/chain/block.js';
import type { ContractAbi } from '../../../core/chain/contract-abi.js';
import type { ChainNetwork } from '../../../core/stacks-codec/network.js';
import type { NodeBlock } from '../../../core/stacks-codec/node-block.js';
import { normalizeBlock } from '../../../core/stacks-codec/normalize-block.js';
import type { HookOptions } from '../../../core/hooks/definition.js';
import { shapePayload } from '../../../core/payload/index.js';
import { validateChainhookEvent } from '../../support/chainhook-event-schema.js';
import { NODE_RECORDINGS, describeWithFixtures, readReplayTsv } from '../../support/fixtures.js';
import { everyOptionCombination } from './sample-blocks.js';

const NODE_FILES = NODE_RECORDINGS;

type Recorded = { file: string; network: ChainNetwork; block: NormalizedBlock };

/** Every `/new_block` of every recording, normalized in file order with earlier deploys' ABIs fed forward. */
async function recordedBlocks(): Promise<Recorded[]> {
  const mainnetAbis = new Map<string, ContractAbi>();
  const out: Recorded[] = [];
  for (const { file, network } of NODE_FILES) {
    // The testnet recordings are separate regtest chains; the mainnet ones are one chain's history.
    const known = network === 'mainnet' ? mainnetAbis : new Map<string, ContractAbi>();
    for await (const request of readReplayTsv(file)) {
      if (request.path !== '/new_block') continue;
      const { block, contracts } = normalizeBlock(request.body as NodeBlock, {
        network,
        lookupAbi: (id) => known.get(id),
      });
      for (const contract of contracts)
        if (contract.abi) known.set(contract.contract_identifier, contract.abi);
      out.push({ file, network, block });
    }
  }
  return out;
}

const hasOp = (block: NormalizedBlock, type: string) =>
  block.transactions.some((tx) => tx.operations.some((op) => op.type === type));

/** The blocks every option combination is tried on, each picked by what makes it representative. */
const REPRESENTATIVES: { label: string; pick: (r: Recorded) => boolean }[] = [
  { label: 'genesis', pick: (r) => r.block.block_identifier.index === 0 && r.network === 'mainnet' },
  { label: 'the busy poison-microblock block', pick: (r) => r.file.includes('poisonmicroblock') },
  {
    label: 'a Nakamoto block with signatures and a tenure change',
    pick: (r) =>
      (r.block.metadata.signatures.signer_signatures?.length ?? 0) > 0 && hasOp(r.block, 'tenure_change'),
  },
  {
    label: 'a block deploying a contract with an ABI',
    pick: (r) =>
      r.block.block_identifier.index > 0 &&
      r.block.transactions.some((tx) =>
        tx.operations.some((op) => op.type === 'contract_deploy' && op.metadata.abi),
      ),
  },
  {
    label: 'a block with microblock transactions',
    pick: (r) => r.block.transactions.some((tx) => tx.metadata.position.microblock_identifier !== null),
  },
  {
    label: 'a block with NFT and FT transfers and aborted transactions',
    pick: (r) => r.file.includes('out-of-order'),
  },
  {
    label: 'a block with stx_lock',
    pick: (r) => hasOp(r.block, 'stx_lock') && hasOp(r.block, 'contract_log'),
  },
];

/** Every transaction of a block, and a subset of them (every other one). */
function selections(block: NormalizedBlock): { every: number[]; some: number[] } {
  const every = block.transactions.map((_, i) => i);
  const some = every.length > 1 ? every.filter((i) => i % 2 === 1) : every;
  return { every, some };
}

/**
 * The errors of the two payloads that show the block in full in apply and in part in rollback,
 * then the other way round; also checks each shows exactly the chosen transactions, all operations kept.
 */
function check({ block, network }: Recorded, options: HookOptions): string[] {
  const { every, some } = selections(block);
  const errors: string[] = [];
  for (const [apply, rollback] of [
    [every, some],
    [some, every],
  ]) {
    const body = shapePayload({
      hook: { uuid: '00000000-0000-4000-8000-000000000000', name: 'fixtures', options },
      network,
      apply: [{ block, txIndexes: apply }],
      rollback: [{ block, txIndexes: rollback }],
    });
    for (const [shown, chosen] of [
      [body.event.apply[0], apply],
      [body.event.rollback[0], rollback],
    ] as const) {
      const hashes = shown.transactions.map((tx) => tx.transaction_identifier.hash);
      const counts = shown.transactions.map((tx) => tx.operations.length);
      const chosenTxs = chosen.map((i) => block.transactions[i]);
      expect(hashes).to.deep.equal(chosenTxs.map((tx) => tx.transaction_identifier.hash));
      expect(counts).to.deep.equal(chosenTxs.map((tx) => tx.operations.length));
    }
    errors.push(...validateChainhookEvent(JSON.parse(JSON.stringify(body))).slice(0, 3));
  }
  return errors;
}

describeWithFixtures('shapePayload on every recorded node block', function () {
  this.timeout(60_000);
  let recorded: Recorded[];
  before(async () => {
    recorded = await recordedBlocks();
  });

  for (const { label, pick } of REPRESENTATIVES) {
    it(`shapes ${label} into valid payloads under all 128 option combinations, in apply and rollback`, () => {
      const found = recorded.find(pick);
      expect(found, label).to.not.equal(undefined);
      for (const options of everyOptionCombination()) {
        const where = `${found!.file} ${found!.block.block_identifier.hash} ${JSON.stringify(options)}`;
        expect(check(found!, options), where).to.deep.equal([]);
      }
    });
  }

  const FEW: [string, HookOptions][] = [
    ['no options', {}],
    ['every option', everyOptionCombination().at(-1)!],
    [
      'decoded values with ABIs and source',
      { decode_clarity_values: true, include_contract_abi: true, include_contract_source_code: true },
    ],
    [
      'block metadata, signatures, raw transactions and post-conditions',
      {
        include_block_metadata: true,
        include_block_signatures: true,
        include_raw_transactions: true,
        include_post_conditions: true,
      },
    ],
  ];
  for (const [label, options] of FEW) {
    it(`shapes every recorded block into valid payloads with ${label}`, () => {
      expect(recorded.length).to.be.greaterThan(900);
      for (const r of recorded) {
        expect(check(r, options), `${r.file} ${r.block.block_identifier.hash}`).to.deep.equal([]);
      }
    });
  }
});
