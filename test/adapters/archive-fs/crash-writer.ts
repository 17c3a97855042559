// Child process of the archive's crash test: puts a forking chain until it is killed, printing each
// block's hash only after its put has resolved. The sequence is deterministic, so a later round
// re-puts the blocks already stored (no-ops) and goes on past them.
import { openFsArchive } from '../../../adapters/archive-fs/index.js';
import { ChainBuilder, minimalNormalizedBlock } from '../../support/block-builder.js';

const [dir] = process.argv.slice(2);
if (!dir) throw new Error('usage: crash-writer.ts <archive dir>');

// Frequent checkpoints and small segments, so that kills land inside checkpoints and rollovers too.
const archive = await openFsArchive(dir, { checkpointEvery: 16, segmentBytes: 16 * 1024 });
let chain = new ChainBuilder({ label: 'crash' });
for (let n = 1; ; n++) {
  // Every 20th block starts a branch three blocks down: the new block, two below the tip, becomes the
  // tip at once, so the writer keeps switching to lower blocks and cutting the canonical index.
  if (n % 20 === 0) chain = chain.forkFrom((chain.head?.block_height ?? 3) - 3);
  const block = chain.next();
  await archive.put(minimalNormalizedBlock(block));
  process.stdout.write(`${block.index_block_hash}\n`);
}
