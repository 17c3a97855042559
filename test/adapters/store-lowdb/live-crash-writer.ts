// Child process of the live log's crash test: registers 20 live hooks, then records live steps until
// it is killed, printing each step's height only after the step resolved (its line is on disk).
// Hook i is written by every (i + 1)th step, one occurrence each time.
import { openLowdbStore } from '../../../adapters/store-lowdb/index.js';
import { countLiveStep, createHook } from '../../../core/hooks/lifecycle.js';
import { liveCrashHookUuid } from './live-crash-hooks.js';

const [dataDir, rewriteArg] = process.argv.slice(2);
if (!dataDir) throw new Error('usage: live-crash-writer.ts <dataDir> [live log rewrite bytes]');

const store = await openLowdbStore(dataDir, rewriteArg ? { liveLogRewriteBytes: Number(rewriteArg) } : {});
const uuids = Array.from({ length: 20 }, (_, i) => liveCrashHookUuid(i));
for (const uuid of uuids) {
  const definition = {
    name: `live crash ${uuid}`,
    version: '1' as const,
    chain: 'stacks' as const,
    network: 'mainnet' as const,
    filters: { events: [{ type: 'stx_transfer' as const }] },
    action: { type: 'http_post' as const, url: 'https://example.com/crash' },
    options: { enable_on_registration: true },
  };
  await store.hooks.insert(createHook('crash', uuid, definition, Date.now()), Number.MAX_SAFE_INTEGER);
}
for (let height = 1; ; height++) {
  const named = uuids.filter((_, i) => height % (i + 1) === 0);
  await store.hooks.recordLiveStep({ blocks: 1, height, at: height }, named, (hook) =>
    countLiveStep(hook, [height], height, height * 1000),
  );
  // Printed only now: an ack lost with the process can weaken the test, never fake a pass.
  process.stdout.write(`${height}\n`);
}
