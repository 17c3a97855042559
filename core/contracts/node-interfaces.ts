import type { ContractAbi } from '../chain/contract-abi.js';
import type { Clock } from '../ports/clock.js';
import type { ContractInterfaceSource, InterfaceAnswer } from '../ports/contract-interface-source.js';
import type { Logger } from '../ports/logger.js';
import type { Timer } from '../ports/timer.js';

/** The first wait before asking the node again about a contract it did not know (doubling). */
export const CONTRACT_RETRY_MS = 30_000;
/** The longest wait before asking again about one contract. */
export const CONTRACT_RETRY_MAX_MS = 3_600_000;
/** The first pause after the node did not answer in time (doubling while it keeps failing). */
export const NODE_PAUSE_MS = 10_000;
/** The longest pause. */
export const NODE_PAUSE_MAX_MS = 300_000;
/** Contracts whose retry time is remembered; past it the oldest is forgotten (and may be asked again). */
const RETRY_MEMORY = 10_000;

/** What asking the node has cost and given so far; plain numbers a metrics adapter can read. */
export type NodeInterfaceCounters = {
  /** Interface requests sent. */
  node_requests: number;
  node_found: number;
  node_not_found: number;
  /** Answers that were no interface (an error status, a body that is not an ABI). */
  node_refused: number;
  /** Requests without an answer in time, or that could not connect. */
  node_unreachable: number;
  /** Times the node was paused: nothing is asked, and nothing waits on it, until the pause ends. */
  node_pauses: number;
};

/** Counters at zero. */
export function nodeInterfaceCounters(): NodeInterfaceCounters {
  return {
    node_requests: 0,
    node_found: 0,
    node_not_found: 0,
    node_refused: 0,
    node_unreachable: 0,
    node_pauses: 0,
  };
}

/** The wait before asking again after `attempts` failed attempts: `base` doubling, at most `max`. */
export function backoff(attempts: number, base: number, max: number): number {
  return Math.min(max, base * 2 ** Math.min(Math.max(attempts - 1, 0), 30));
}

/**
 * Asking a node for the interfaces of contracts nobody else knows, without ever stalling the
 * caller: at most `concurrency` requests at once, one request per contract however many blocks
 * call it, and a wait bounded by the source's timeout. A contract the node did not know, or
 * answered badly about, is asked again after a back-off; a node that does not answer in time is
 * paused (no request, no wait) for a back-off of its own. Answers that come after the wait ended
 * still land (`onFound`), so later blocks find them.
 */
export class NodeInterfaces {
  private readonly inFlight = new Map<string, Promise<void>>();
  private readonly retries = new Map<string, { at: number; attempts: number }>();
  private readonly queue: (() => void)[] = [];
  private active = 0;
  private pausedUntil = 0;
  private nodeFailures = 0;

  constructor(
    private readonly source: ContractInterfaceSource,
    private readonly clock: Clock,
    private readonly timer: Timer,
    private readonly logger: Logger,
    private readonly onFound: (contractId: string, abi: ContractAbi) => void,
    /** Where the counts go (a caller may share its own object); fresh by default. */
    readonly counters: NodeInterfaceCounters = nodeInterfaceCounters(),
  ) {}

  /** Whether asking about `contractId` now would send a request or join one under way. */
  wouldAsk(contractId: string): boolean {
    const now = this.clock.now();
    if (now < this.pausedUntil) return false;
    return this.inFlight.has(contractId) || (this.retries.get(contractId)?.at ?? 0) <= now;
  }

  /**
   * Ask about each of `ids` that is due, and wait until all have answered or the source's timeout
   * has passed, whichever is first. Waiting out the timeout pauses the node.
   */
  async ask(ids: Iterable<string>): Promise<void> {
    const answers: Promise<void>[] = [];
    for (const id of ids) {
      if (!this.wouldAsk(id)) continue;
      let answer = this.inFlight.get(id);
      if (!answer) {
        answer = this.request(id).finally(() => this.inFlight.delete(id));
        this.inFlight.set(id, answer);
      }
      answers.push(answer);
    }
    if (answers.length === 0) return;
    const wait = this.timer.wait(this.source.timeoutMs);
    const answered = await Promise.race([
      Promise.all(answers).then(() => true),
      wait.elapsed.then(() => false),
    ]);
    wait.cancel();
    if (!answered) this.pause(`no answer within ${this.source.timeoutMs} ms`);
  }

  /** Resolves when no request is under way. */
  async idle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.all([...this.inFlight.values()]);
  }

  private async request(id: string): Promise<void> {
    await this.slot();
    try {
      // The node may have been paused while this request queued: then it is not sent.
      if (this.clock.now() < this.pausedUntil) {
        this.retryAt(id, this.pausedUntil, this.attempts(id));
        return;
      }
      this.counters.node_requests++;
      this.settle(id, await this.source.fetchInterface(id));
    } finally {
      this.release();
    }
  }

  private settle(id: string, answer: InterfaceAnswer): void {
    const now = this.clock.now();
    if (answer.kind === 'unreachable') {
      this.counters.node_unreachable++;
      this.pause(answer.reason);
      this.retryAt(id, this.pausedUntil, this.attempts(id));
      return;
    }
    this.nodeFailures = 0;
    if (answer.kind === 'found') {
      this.counters.node_found++;
      this.retries.delete(id);
      this.onFound(id, answer.abi);
      return;
    }
    if (answer.kind === 'not_found') this.counters.node_not_found++;
    else this.counters.node_refused++;
    const attempts = this.attempts(id) + 1;
    this.retryAt(id, now + backoff(attempts, CONTRACT_RETRY_MS, CONTRACT_RETRY_MAX_MS), attempts);
    if (answer.kind === 'refused' && attempts === 1) {
      this.logger.warn('the node answered a contract interface request with no interface', {
        contract: id,
        reason: answer.reason,
      });
    }
  }

  /** Failed attempts so far to learn a contract's interface (a paused node's skips are none). */
  private attempts(id: string): number {
    return this.retries.get(id)?.attempts ?? 0;
  }

  private retryAt(id: string, at: number, attempts: number): void {
    this.retries.delete(id);
    if (this.retries.size >= RETRY_MEMORY) this.retries.delete(this.retries.keys().next().value as string);
    this.retries.set(id, { at, attempts });
  }

  // One pause per episode: the requests that fail together (a silent node times them all out at
  // once) pause the node once.
  private pause(reason: string): void {
    const now = this.clock.now();
    if (now < this.pausedUntil) return;
    this.nodeFailures++;
    this.counters.node_pauses++;
    const ms = backoff(this.nodeFailures, NODE_PAUSE_MS, NODE_PAUSE_MAX_MS);
    this.pausedUntil = now + ms;
    this.logger.warn(
      'the node RPC did not answer: calls to contracts it would name go out unnamed meanwhile',
      {
        reason,
        paused_ms: ms,
      },
    );
  }

  private slot(): Promise<void> {
    if (this.active < this.source.concurrency) {
      this.active++;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.queue.push(resolve));
  }

  private release(): void {
    const next = this.queue.shift();
    if (next) next();
    else this.active--;
  }
}
