// The stand-in node of the contract-ABI bench, in a process of its own so that its answers do not
// share the measured event loop: it answers every interface request with the same ABI after a
// delay (set by a `delay` request; 5 ms until then), and tells the bench its URL when it listens.
// Started by bench/contract-abis.ts through startBenchChild.
import { startFakeNodeRpc } from '../../test/support/fake-node-rpc.js';
import { LIST_ITEM_ABI } from './abi-calls.js';
import { serveBenchRequests } from './deliver-ipc.js';

/** What the stand-in node tells the bench when it listens. */
export type AbiNodeReady = { url: string };

const node = await startFakeNodeRpc();
node.anyInterface = LIST_ITEM_ABI;
node.delayMs = 5;
serveBenchRequests({ url: node.url } satisfies AbiNodeReady, (request) => {
  if (request.kind === 'delay') {
    node.delayMs = Number(request.ms);
    return null;
  }
  if (request.kind === 'requests') return node.requests.length;
  throw new Error(`unknown request ${request.kind}`);
});
