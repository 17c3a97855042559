// The stand-in node of the contract-ABI bench, in a process of its own so that its answers do not
// share the measured event loop: it answers every interface request with the same ABI after a
// delay, prints `{"url": …}` once it listens, and runs until killed.
// Run: node --import tsx bench/support/abi-node.ts DELAY_MS
import { startFakeNodeRpc } from '../../test/support/fake-node-rpc.js';
import { LIST_ITEM_ABI } from './abi-calls.js';

const node = await startFakeNodeRpc();
node.anyInterface = LIST_ITEM_ABI;
node.delayMs = Number(process.argv[2] ?? 5);
console.log(JSON.stringify({ url: node.url }));
process.on('SIGTERM', () => void node.close().then(() => process.exit(0)));
