import type { ContractAbi } from '../chain/contract-abi.js';

/** What a node said when asked for one contract's interface. */
export type InterfaceAnswer =
  | { kind: 'found'; abi: ContractAbi }
  /** The node knows no such contract (it may be behind the chain the blocks come from). */
  | { kind: 'not_found' }
  /** The node answered, but not with an interface: an error status, or a body that is not an ABI. */
  | { kind: 'refused'; reason: string }
  /** No answer: the connection failed, the timeout passed, or the node said it is too busy (429, 503). */
  | { kind: 'unreachable'; reason: string };

/**
 * Where ABIs of contracts whose deploy the service never saw come from: a stacks-node's RPC
 * (`GET /v2/contracts/interface/{address}/{name}`). Every answer comes within `timeoutMs`.
 */
export interface ContractInterfaceSource {
  /** The longest an answer takes; nothing waits on the source for longer. */
  readonly timeoutMs: number;
  /** How many questions may be out at once. */
  readonly concurrency: number;
  /** Ask for one contract's interface; never throws (a failure is an answer). */
  fetchInterface(contractId: string): Promise<InterfaceAnswer>;
}

export const CONTRACT_INTERFACE_SOURCE = Symbol.for('stackhooks.ContractInterfaceSource');
