// The busy-block workload of bench/ingest: the one busy recorded block (poisonmicroblock.tsv, 63 txs,
// 585 events) repeated as a chain of copies, each with its own deterministic hashes, so that every
// copy is a new block to the archive while the transactions stay exactly the recorded ones.
import { createHash } from 'node:crypto';
import { open, readFile } from 'node:fs/promises';
import type { NodeBlock } from '../../core/stacks-codec/node-block.js';

/** The first `/new_block` line of a replay TSV: its body as text and parsed. */
export type RecordedBlock = { id: string; receivedAt: string; body: string; block: NodeBlock };

/** Read the first `/new_block` request of a (small, uncompressed) replay TSV. */
export async function readFirstNodeBlock(file: string): Promise<RecordedBlock> {
  for (const line of (await readFile(file, 'utf8')).split('\n')) {
    const [id, receivedAt, path, ...rest] = line.split('\t');
    if (path !== '/new_block') continue;
    const body = rest.join('\t');
    return { id, receivedAt, body, block: JSON.parse(body) as NodeBlock };
  }
  throw new Error(`${file} holds no /new_block request`);
}

/** A 0x-prefixed sha256 of `label`: a fresh, reproducible 32-byte hash. */
function hashOf(label: string): string {
  return `0x${createHash('sha256').update(label).digest('hex')}`;
}

/** The index block hash and block hash of copy `n`. */
export function copyHashes(n: number): { index: string; block: string } {
  return {
    index: hashOf(`stackhooks bench/ingest busy copy ${n} index_block_hash`),
    block: hashOf(`stackhooks bench/ingest busy copy ${n} block_hash`),
  };
}

/**
 * Copy `n` of the chain: fresh `index_block_hash` and `block_hash`, parented on copy `n - 1` (copy 0
 * keeps the recorded parents), height `n` above the recorded one; everything else unchanged.
 */
export function busyCopy(block: NodeBlock, n: number): NodeBlock {
  const own = copyHashes(n);
  const parent = n === 0 ? undefined : copyHashes(n - 1);
  return {
    ...block,
    index_block_hash: own.index,
    block_hash: own.block,
    parent_index_block_hash: parent?.index ?? block.parent_index_block_hash,
    parent_block_hash: parent?.block ?? block.parent_block_hash,
    block_height: block.block_height + n,
  };
}

/** Write `copies` consecutive copies of `recorded` as an event-replay TSV (`id \t received_at \t path \t json`). */
export async function writeBusyTsv(file: string, recorded: RecordedBlock, copies: number): Promise<void> {
  const handle = await open(file, 'w');
  try {
    for (let n = 0; n < copies; n++) {
      const body = JSON.stringify(busyCopy(recorded.block, n));
      await handle.write(`${Number(recorded.id) + n}\t${recorded.receivedAt}\t/new_block\t${body}\n`);
    }
  } finally {
    await handle.close();
  }
}
