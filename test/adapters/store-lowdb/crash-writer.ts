// Child process of the crash-safety test: inserts hooks until it is killed, printing each uuid only
// after its insert has resolved, i.e. after the store says the hook is on disk.
import { randomUUID } from 'node:crypto';
import { openLowdbStore } from '../../../adapters/store-lowdb/index.js';
import { createHook } from '../../../core/hooks/lifecycle.js';

const [dataDir, writersArg = '8', compactArg] = process.argv.slice(2);
if (!dataDir) throw new Error('usage: crash-writer.ts <dataDir> [concurrent writers] [compact after bytes]');

// A small compaction size makes compactions frequent, so kills land in the middle of them too.
const store = await openLowdbStore(dataDir, compactArg ? { compactAfterBytes: Number(compactArg) } : {});

/** One writer: a tight loop of inserts; several run at once so acknowledgements ride coalesced writes. */
async function insertForever(): Promise<never> {
  for (;;) {
    const uuid = randomUUID();
    const definition = {
      name: `crash ${uuid}`,
      version: '1' as const,
      chain: 'stacks' as const,
      network: 'mainnet' as const,
      filters: { events: [{ type: 'stx_transfer' as const }] },
      action: { type: 'http_post' as const, url: 'https://example.com/crash' },
    };
    await store.hooks.insert(createHook('crash', uuid, definition, Date.now()), Number.MAX_SAFE_INTEGER);
    // Printed only now: an ack lost with the process can weaken the test, never fake a pass.
    process.stdout.write(`${uuid}\n`);
  }
}

await Promise.all(Array.from({ length: Number(writersArg) }, insertForever));
