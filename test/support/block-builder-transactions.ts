// The transaction half of the block builder: real signed transactions with their node-reported outcome.
import {
  Cl,
  makeContractCall,
  makeContractDeploy,
  makeSTXTokenTransfer,
  privateKeyToAddress,
  serializeCV,
} from '@stacks/transactions';
import type { ClarityValue, StacksTransactionWire } from '@stacks/transactions';
import type { NodeTransaction as ObservedTransaction } from '../../core/stacks-codec/node-block.js';
import { EMPTY_ABI, events, zeroCost } from './block-builder-events.js';
import type { EventSpec } from './block-builder-events.js';

/** The network a transaction is signed for (it picks the address version). */
export type BuilderNetwork = 'mainnet' | 'testnet';

/** Fixed compressed private keys, so every run signs the same bytes. */
export const TEST_KEYS = {
  alice: 'e494f188c2d35887531ba474c433b1e41fadd8eb824aca983447fd4bb8b277a801',
  bob: 'c71700b07d520a8c9731e4d0f095aa6efb91e16e25fb27ce2b72e7b698f8127a01',
  carol: '2c6f8ff3ba5d1a3a7c07a1f7b6cb27a8e7e2ae0d5c8f4c8a4f6f1a6d5b0e9c3f01',
} as const;

/** A transaction's execution status as the node reports it. */
export type TxStatus = 'success' | 'abort_by_response' | 'abort_by_post_condition';

/** A transaction as the node reports it in `/new_block`, with the fields every anchored transaction has. */
export type NodeTransaction = ObservedTransaction & {
  status: TxStatus;
  execution_cost: ReturnType<typeof zeroCost>;
  contract_abi: unknown;
  vm_error: string | null;
  microblock_hash: null;
  microblock_sequence: null;
  microblock_parent_hash: null;
};

/** A signed transaction with its outcome and events, ready for `ChainBuilder.next`. */
export type BuiltTransaction = {
  transaction: Omit<NodeTransaction, 'tx_index'>;
  events: EventSpec[];
  /** What a decoder must find in `raw_tx`. */
  sender: string;
  nonce: bigint;
  fee: bigint;
};

/** What every transaction builder takes: the signer (alice by default), nonce, fee and network. */
export type Signing = {
  senderKey?: string;
  nonce?: number | bigint;
  fee?: number | bigint;
  network?: BuilderNetwork;
};

/** The address of a key on a network. */
export function addressOf(key: string, network: BuilderNetwork = 'mainnet'): string {
  return privateKeyToAddress(key, network);
}

function signing(options: Signing) {
  const network = options.network ?? 'mainnet';
  const senderKey = options.senderKey ?? TEST_KEYS.alice;
  // Fee and nonce are always given, so the library never asks a node for them.
  return { senderKey, network, nonce: BigInt(options.nonce ?? 0), fee: BigInt(options.fee ?? 180) };
}

function built(
  wire: StacksTransactionWire,
  options: Signing,
  events: EventSpec[],
  abi: unknown = null,
): BuiltTransaction {
  const { senderKey, network, nonce, fee } = signing(options);
  const transaction = {
    txid: `0x${wire.txid()}`,
    raw_tx: `0x${wire.serialize()}`,
    status: 'success' as const,
    raw_result: `0x${serializeCV(Cl.ok(Cl.bool(true)))}`,
    execution_cost: zeroCost(),
    contract_abi: abi,
    vm_error: null,
    microblock_hash: null,
    microblock_sequence: null,
    microblock_parent_hash: null,
  };
  return { transaction, events, sender: addressOf(senderKey, network), nonce, fee };
}

/** A signed STX transfer with the `stx_transfer_event` the node reports for it. */
export async function stxTransfer(
  options: Signing & { recipient: string; amount: number | bigint; memo?: string },
): Promise<BuiltTransaction> {
  const sign = signing(options);
  const wire = await makeSTXTokenTransfer({
    ...sign,
    recipient: options.recipient,
    amount: options.amount,
    memo: options.memo,
  });
  const sender = addressOf(sign.senderKey, sign.network);
  return built(wire, options, [events.stxTransfer({ ...options, sender })]);
}

/** A signed contract deploy; the node reports the contract's ABI with it (`abi`, empty by default). */
export async function contractDeploy(
  options: Signing & { contractName: string; codeBody: string; abi?: unknown },
): Promise<BuiltTransaction> {
  const wire = await makeContractDeploy({
    ...signing(options),
    contractName: options.contractName,
    codeBody: options.codeBody,
  });
  return built(wire, options, [], options.abi ?? EMPTY_ABI);
}

/** A signed contract call to `contractId` (`ADDRESS.name`). */
export async function contractCall(
  options: Signing & { contractId: string; functionName: string; functionArgs?: ClarityValue[] },
): Promise<BuiltTransaction> {
  const [contractAddress, contractName] = options.contractId.split('.');
  const wire = await makeContractCall({
    ...signing(options),
    contractAddress,
    contractName,
    functionName: options.functionName,
    functionArgs: options.functionArgs ?? [],
  });
  return built(wire, options, []);
}

/** The transaction with `more` events after its own. */
export function withEvents(tx: BuiltTransaction, ...more: EventSpec[]): BuiltTransaction {
  return { ...tx, events: [...tx.events, ...more] };
}

/** The transaction with `result` as its Clarity result. */
export function withResult(tx: BuiltTransaction, result: ClarityValue): BuiltTransaction {
  return { ...tx, transaction: { ...tx.transaction, raw_result: `0x${serializeCV(result)}` } };
}

/** The transaction aborted: its status and result set and, as the node reports, its events uncommitted. */
export function aborted(
  tx: BuiltTransaction,
  status: 'abort_by_response' | 'abort_by_post_condition',
  result: ClarityValue = status === 'abort_by_response' ? Cl.error(Cl.uint(1)) : Cl.ok(Cl.bool(true)),
): BuiltTransaction {
  const vmError = status === 'abort_by_post_condition' ? 'post-condition check failed' : null;
  const failed = withResult(tx, result);
  return {
    ...failed,
    transaction: { ...failed.transaction, status, vm_error: vmError },
    events: failed.events.map((event) => ({ ...event, committed: false })),
  };
}
