import { expect } from 'chai';
import type { ContractAbi } from '../../../core/chain/contract-abi.js';
import {
  CONTRACT_RETRY_MS,
  NODE_PAUSE_MS,
  NodeInterfaces,
  backoff,
} from '../../../core/contracts/node-interfaces.js';
import type {
  ContractInterfaceSource,
  InterfaceAnswer,
} from '../../../core/ports/contract-interface-source.js';
import type { Logger } from '../../../core/ports/logger.js';
import { SystemTimer } from '../../../adapters/system/index.js';

const ABI: ContractAbi = { functions: [] };

/**
 * A source whose answers the test gives: each request waits until `answer(id, …)` settles it (or
 * answers at once with `auto`). Records what was asked and how many were out at once.
 */
class ScriptedSource implements ContractInterfaceSource {
  readonly asked: string[] = [];
  readonly waiting = new Map<string, (answer: InterfaceAnswer) => void>();
  auto: InterfaceAnswer | undefined;
  out = 0;
  mostOut = 0;
  constructor(
    readonly timeoutMs = 50,
    readonly concurrency = 4,
  ) {}

  fetchInterface(id: string): Promise<InterfaceAnswer> {
    this.asked.push(id);
    if (this.auto) return Promise.resolve(this.auto);
    this.out++;
    this.mostOut = Math.max(this.mostOut, this.out);
    return new Promise((resolve) =>
      this.waiting.set(id, (answer) => {
        this.out--;
        this.waiting.delete(id);
        resolve(answer);
      }),
    );
  }

  answer(id: string, answer: InterfaceAnswer): void {
    this.waiting.get(id)!(answer);
  }
}

const quiet: Logger = { debug() {}, info() {}, warn() {}, error() {} };

function setup(source = new ScriptedSource()) {
  const clock = { t: 1_000_000, now: () => clock.t };
  const found = new Map<string, ContractAbi>();
  const node = new NodeInterfaces(source, clock, new SystemTimer(), quiet, (id, abi) => found.set(id, abi));
  return { source, clock, found, node };
}

/** Let queued promise callbacks run. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('NodeInterfaces', () => {
  it('asks once about a contract however many callers ask while the answer is on its way', async () => {
    const { source, node, found } = setup();
    const first = node.ask(['a.x']);
    const second = node.ask(['a.x', 'a.x']);
    await settle();
    source.answer('a.x', { kind: 'found', abi: ABI });
    await Promise.all([first, second]);
    expect(source.asked).to.deep.equal(['a.x']);
    expect(found.get('a.x')).to.equal(ABI);
    expect(node.counters).to.include({ node_requests: 1, node_found: 1 });
  });

  it('keeps at most `concurrency` requests out at once', async () => {
    const { source, node } = setup(new ScriptedSource(10_000, 3));
    const ids = Array.from({ length: 10 }, (_, i) => `a.c${i}`);
    const asking = node.ask(ids);
    for (let answered = 0; answered < ids.length;) {
      await settle();
      for (const id of [...source.waiting.keys()]) {
        source.answer(id, { kind: 'not_found' });
        answered++;
      }
    }
    await asking;
    expect(source.asked).to.have.members(ids);
    expect(source.mostOut).to.equal(3);
  });

  it('asks again about a contract the node did not know only after a back-off that doubles', async () => {
    const { source, node, clock } = setup();
    source.auto = { kind: 'not_found' };
    await node.ask(['a.x']);
    await node.ask(['a.x']);
    expect(source.asked).to.have.length(1);
    clock.t += CONTRACT_RETRY_MS;
    await node.ask(['a.x']);
    expect(source.asked).to.have.length(2);
    clock.t += CONTRACT_RETRY_MS;
    await node.ask(['a.x']);
    expect(source.asked, 'the second wait is twice the first').to.have.length(2);
    clock.t += CONTRACT_RETRY_MS;
    await node.ask(['a.x']);
    expect(source.asked).to.have.length(3);
    expect(node.counters).to.include({ node_requests: 3, node_not_found: 3 });
  });

  it('backs off from a contract the node answered badly about, as from one it did not know', async () => {
    const { source, node, clock } = setup();
    source.auto = { kind: 'refused', reason: 'HTTP 500' };
    for (let i = 0; i < 5; i++) await node.ask(['a.x']);
    expect(source.asked).to.have.length(1);
    clock.t += CONTRACT_RETRY_MS;
    await node.ask(['a.x']);
    expect(node.counters).to.include({ node_requests: 2, node_refused: 2, node_pauses: 0 });
  });

  it('waits no longer than the timeout, then pauses the node: nothing is asked until the pause ends', async () => {
    const { source, node, clock } = setup(new ScriptedSource(30, 4));
    await node.ask(['a.x', 'a.y']);
    expect(node.counters.node_pauses).to.equal(1);
    expect(node.wouldAsk('a.z')).to.equal(false);
    await node.ask(['a.z']);
    expect(source.asked).to.deep.equal(['a.x', 'a.y']);
    // Late answers still land.
    source.answer('a.x', { kind: 'found', abi: ABI });
    source.answer('a.y', { kind: 'unreachable', reason: 'timed out' });
    await node.idle();
    expect(node.counters).to.include({ node_found: 1, node_unreachable: 1, node_pauses: 1 });
    clock.t += NODE_PAUSE_MS;
    source.auto = { kind: 'found', abi: ABI };
    await node.ask(['a.z', 'a.y']);
    expect(source.asked).to.deep.equal(['a.x', 'a.y', 'a.z', 'a.y']);
  });

  it('pauses the node once for requests that fail together, and drops those still queued', async () => {
    const { source, node } = setup(new ScriptedSource(10_000, 2));
    const asking = node.ask(['a.1', 'a.2', 'a.3', 'a.4']);
    await settle();
    source.answer('a.1', { kind: 'unreachable', reason: 'connect ECONNREFUSED' });
    source.answer('a.2', { kind: 'unreachable', reason: 'connect ECONNREFUSED' });
    await asking;
    expect(source.asked).to.deep.equal(['a.1', 'a.2']);
    expect(node.counters).to.include({ node_requests: 2, node_unreachable: 2, node_pauses: 1 });
  });

  it('pauses longer each time the node fails again, and starts over once it answers', async () => {
    const { source, node, clock } = setup();
    source.auto = { kind: 'unreachable', reason: 'connect ECONNREFUSED' };
    await node.ask(['a.1']);
    clock.t += NODE_PAUSE_MS;
    await node.ask(['a.2']);
    clock.t += NODE_PAUSE_MS;
    expect(node.wouldAsk('a.3'), 'the second pause is twice the first').to.equal(false);
    clock.t += NODE_PAUSE_MS;
    source.auto = { kind: 'not_found' };
    await node.ask(['a.3']);
    source.auto = { kind: 'unreachable', reason: 'connect ECONNREFUSED' };
    await node.ask(['a.4']);
    clock.t += NODE_PAUSE_MS;
    expect(node.wouldAsk('a.5'), 'after an answer the pause is the first one again').to.equal(true);
  });
});

describe('backoff', () => {
  it('doubles from the base and stops at the maximum', () => {
    expect([1, 2, 3, 4, 5, 50].map((n) => backoff(n, 10, 100))).to.deep.equal([10, 20, 40, 80, 100, 100]);
  });
});
