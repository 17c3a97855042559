import type { TransactionPayload } from '../chain/transaction-payload.js';
import type { DecodedTransaction } from './decode-transaction.js';
import { bootAddress, type ChainNetwork } from './network.js';
import type { NodeBurnchainOp, NodeEvent } from './node-block.js';

/**
 * Builds the transaction of a Bitcoin-originated operation (`raw_tx = 0x00`) from the node's
 * `burnchain_op` and, for nodes that did not send one (before 2.1), from its events. Such an
 * operation has no Stacks fee, nonce, signature or post-conditions: fee "0", nonce 0, mode
 * `allow`, none.
 *
 * The node executes four kinds as Stacks transactions: `transfer_stx` is a `token_transfer`;
 * `stack_stx` and `delegate_stx` are calls to the active PoX contract and
 * `vote_for_aggregate_key` a call to `signers-voting`, so they are `contract_call`s, as the
 * Stacks Blockchain API shows them. Their arguments are left empty: the node does not send
 * them, and rebuilding them would mean decoding Bitcoin reward addresses.
 */
export function decodeBurnchainTransaction(
  op: NodeBurnchainOp | null | undefined,
  events: readonly NodeEvent[],
  network: ChainNetwork,
): DecodedTransaction {
  const { sender, payload } = describe(op, events, network);
  return {
    sender_address: sender,
    sponsor_address: null,
    sponsored: false,
    fee: '0',
    nonce: 0,
    post_conditions: { mode: 'allow', post_conditions: [] },
    payload,
  };
}

type Description = { sender: string; payload: TransactionPayload };

function describe(
  op: NodeBurnchainOp | null | undefined,
  events: readonly NodeEvent[],
  network: ChainNetwork,
): Description {
  const boot = bootAddress(network);
  if (op && 'transfer_stx' in op) {
    const t = op.transfer_stx;
    return {
      sender: t.sender.address,
      payload: {
        type: 'token_transfer',
        recipient: t.recipient.address,
        amount: String(t.transfered_ustx),
        memo: t.memo.startsWith('0x') ? t.memo : `0x${t.memo}`,
      },
    };
  }
  const lock = events.find((e) => e.type === 'stx_lock_event');
  const poxContract = poxContractOf(events, boot);
  if (op && 'stack_stx' in op) {
    // pox-4 introduced signer keys, so a stack-stx op that carries one ran on pox-4.
    const fallback = op.stack_stx.signer_key ? `${boot}.pox-4` : `${boot}.pox`;
    return call(op.stack_stx.sender.address, poxContract ?? fallback, 'stack-stx');
  }
  if (op && 'delegate_stx' in op) {
    // Bitcoin delegate-stx arrived with pox-2; assume the newest PoX when no event names one.
    return call(op.delegate_stx.sender.address, poxContract ?? `${boot}.pox-4`, 'delegate-stx');
  }
  if (op && 'vote_for_aggregate_key' in op) {
    return call(
      op.vote_for_aggregate_key.sender.address,
      `${boot}.signers-voting`,
      'vote-for-aggregate-public-key',
    );
  }
  const transfer = events.find((e) => e.type === 'stx_transfer_event');
  if (transfer) {
    const t = transfer.stx_transfer_event;
    return {
      sender: t.sender,
      payload: {
        type: 'token_transfer',
        recipient: t.recipient,
        amount: t.amount,
        memo: `0x${t.memo ?? ''}`,
      },
    };
  }
  if (lock) return call(lock.stx_lock_event.locked_address, poxContract ?? `${boot}.pox`, 'stack-stx');
  // A pre-2.1 node sent neither an op nor, for a failed one, any event. Then the only Bitcoin
  // operations besides STX transfers were stack-stx calls to `pox`, whose sender the node did not
  // report: the boot address stands in, so the transaction is still delivered and counted.
  return call(boot, `${boot}.pox`, 'stack-stx');
}

function call(sender: string, contractId: string, functionName: string): Description {
  return {
    sender,
    payload: {
      type: 'contract_call',
      contract_identifier: contractId,
      function_name: functionName,
      args: [],
    },
  };
}

/** The PoX contract that an operation's lock or print events name, if any. */
function poxContractOf(events: readonly NodeEvent[], boot: string): string | undefined {
  for (const e of events) {
    const id =
      e.type === 'stx_lock_event'
        ? e.stx_lock_event.contract_identifier
        : e.type === 'contract_event'
          ? e.contract_event.contract_identifier
          : undefined;
    if (id && id.startsWith(`${boot}.pox`)) return id;
  }
  return undefined;
}
