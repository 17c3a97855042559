// Normalized blocks of real signed transactions for the payload tests, built without ../shared.
import { Cl, Pc, makeContractCall, serializeCV } from '@stacks/transactions';
import type { NormalizedBlock } from '../../../core/chain/block.js';
import type { NodeBlock as ObservedBlock } from '../../../core/stacks-codec/node-block.js';
import { normalizeBlock } from '../../../core/stacks-codec/normalize-block.js';
import type { HookOptions } from '../../../core/hooks/definition.js';
import { zeroCost } from '../../support/block-builder-events.js';
import {
  ChainBuilder,
  TEST_KEYS,
  aborted,
  addressOf,
  contractCall,
  contractDeploy,
  events,
  stxTransfer,
  withEvents,
  type BuiltTransaction,
} from '../../support/block-builder.js';

const ALICE = addressOf(TEST_KEYS.alice);
const BOB = addressOf(TEST_KEYS.bob);
/** The contract the sample block deploys and then calls. */
export const COUNTER: `${string}.${string}` = `${ALICE}.counter`;
/** Its source code. */
export const COUNTER_SOURCE =
  '(define-public (add (n uint) (who principal)) (ok true))\n(define-public (reset) (ok true))';
/** The ABI the node reports for it. */
export const COUNTER_ABI = {
  functions: [
    {
      name: 'add',
      access: 'public',
      args: [
        { name: 'n', type: 'uint128' },
        { name: 'who', type: 'principal' },
      ],
      outputs: { type: { response: { ok: 'bool', error: 'none' } } },
    },
    {
      name: 'reset',
      access: 'public',
      args: [],
      outputs: { type: { response: { ok: 'bool', error: 'none' } } },
    },
  ],
  variables: [],
  maps: [],
  fungible_tokens: [{ name: 'points' }],
  non_fungible_tokens: [],
  epoch: 'Epoch21',
  clarity_version: 'Clarity2',
};
/** The value the counter's `add` prints. */
export const PRINTED = Cl.tuple({ action: Cl.stringAscii('add'), n: Cl.uint(5) });

/** Where each kind of transaction sits in the sample block. */
export const TX = {
  deploy: 0,
  call: 1,
  noArgs: 2,
  transfer: 3,
  guarded: 4,
  aborted: 5,
  failedDeploy: 6,
} as const;

/** A parent microblock the sample block confirms, and one its transfer was mined in. */
export const MICROBLOCK = { index: 2, hash: `0x${'ab'.repeat(32)}` };

/** A call with STX, FT and NFT post-conditions in deny mode (the builder signs none). */
async function guardedCall(): Promise<BuiltTransaction> {
  const wire = await makeContractCall({
    senderKey: TEST_KEYS.bob,
    network: 'mainnet',
    nonce: 0n,
    fee: 300n,
    contractAddress: ALICE,
    contractName: 'counter',
    functionName: 'add',
    functionArgs: [Cl.uint(9), Cl.principal(BOB)],
    postConditionMode: 'deny',
    postConditions: [
      Pc.principal(BOB).willSendEq(10).ustx(),
      Pc.principal(COUNTER).willSendLte(100).ft(COUNTER, 'points'),
      Pc.principal(BOB).willNotSendAsset().nft(`${COUNTER}::badge`, Cl.uint(1)),
    ],
  });
  const transaction = {
    txid: `0x${wire.txid()}`,
    raw_tx: `0x${wire.serialize()}`,
    status: 'success' as const,
    raw_result: `0x${serializeCV(Cl.ok(Cl.bool(true)))}`,
    execution_cost: { ...zeroCost(), runtime: 42 },
    contract_abi: null,
    vm_error: null,
    microblock_hash: null,
    microblock_sequence: null,
    microblock_parent_hash: null,
  };
  return { transaction, events: [], sender: BOB, nonce: 0n, fee: 300n };
}

/** The transactions of the sample block, in TX order. */
async function sampleTransactions(): Promise<BuiltTransaction[]> {
  const deploy = await contractDeploy({
    contractName: 'counter',
    codeBody: COUNTER_SOURCE,
    abi: COUNTER_ABI,
  });
  const add = (n: number, who: string, nonce: number, senderKey: string = TEST_KEYS.alice) =>
    contractCall({
      contractId: COUNTER,
      functionName: 'add',
      functionArgs: [Cl.uint(n), Cl.principal(who)],
      nonce,
      senderKey,
    });
  const call = withEvents(
    await add(5, BOB, 1),
    events.print({ contractId: COUNTER, value: PRINTED }),
    events.ftMint({ asset: `${COUNTER}::points`, recipient: BOB, amount: 5 }),
  );
  const noArgs = await contractCall({ contractId: COUNTER, functionName: 'reset', nonce: 2 });
  const transfer = await stxTransfer({ recipient: BOB, amount: 5n, memo: 'hi', nonce: 3 });
  // The builder types anchored transactions only; this one was mined in a microblock.
  const inMicroblock = {
    ...transfer,
    transaction: {
      ...transfer.transaction,
      microblock_hash: MICROBLOCK.hash,
      microblock_sequence: MICROBLOCK.index,
    },
  } as unknown as BuiltTransaction;
  const failed = aborted(
    withEvents(
      await add(1, BOB, 0, TEST_KEYS.carol),
      events.print({ contractId: COUNTER, value: Cl.uint(1) }),
    ),
    'abort_by_response',
  );
  // A deploy that failed: the node reports no ABI for it.
  const failedDeploy = aborted(
    await contractDeploy({ contractName: 'broken', codeBody: '(define-public (f) (err u1))', nonce: 4 }),
    'abort_by_response',
  );
  const noAbi = { ...failedDeploy, transaction: { ...failedDeploy.transaction, contract_abi: null } };
  return [deploy, call, noArgs, inMicroblock, await guardedCall(), failed, noAbi];
}

/**
 * The sample blocks: `epoch2`, a pre-Nakamoto block holding every transaction kind of TX and
 * confirming MICROBLOCK; `nakamoto`, its child with signer fields, a block time and two of the
 * transactions again.
 */
export async function sampleBlocks(): Promise<{ epoch2: NormalizedBlock; nakamoto: NormalizedBlock }> {
  const chain = new ChainBuilder({ label: 'payload' });
  const txs = await sampleTransactions();
  const first: ObservedBlock = {
    ...chain.next({ transactions: txs }),
    parent_microblock: MICROBLOCK.hash,
    parent_microblock_sequence: MICROBLOCK.index,
  };
  const second: ObservedBlock = {
    ...chain.next({ transactions: [txs[TX.call], txs[TX.transfer]] }),
    block_time: 1_700_000_123,
    tenure_height: 7,
    signer_bitvec: '000800000001ff',
    signer_signature: ['01'.repeat(65), '02'.repeat(65)],
  };
  const context = { network: 'mainnet' as const, lookupAbi: () => undefined };
  return { epoch2: normalizeBlock(first, context).block, nakamoto: normalizeBlock(second, context).block };
}

/** The seven payload options. */
export const PAYLOAD_OPTIONS = [
  'decode_clarity_values',
  'include_contract_abi',
  'include_contract_source_code',
  'include_post_conditions',
  'include_raw_transactions',
  'include_block_metadata',
  'include_block_signatures',
] as const;

/** All 128 combinations of the seven payload options, each spelled out (every option true or false). */
export function everyOptionCombination(): HookOptions[] {
  const combos: HookOptions[] = [];
  for (let bits = 0; bits < 1 << PAYLOAD_OPTIONS.length; bits++) {
    combos.push(Object.fromEntries(PAYLOAD_OPTIONS.map((name, i) => [name, (bits & (1 << i)) !== 0])));
  }
  return combos;
}

/** Freezes a value and everything it reaches, so that any write to it throws. */
export function deepFreeze<T>(value: T, seen = new Set<object>()): T {
  if (value && typeof value === 'object' && !seen.has(value)) {
    seen.add(value);
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child, seen);
  }
  return value;
}
