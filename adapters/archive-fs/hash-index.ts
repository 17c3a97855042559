import { readSync } from 'node:fs';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { BlockHeader } from '../../core/chain/block-header.js';
import { writeAll } from '../../core/storage/write-all.js';
import { syncDirectory } from './durable-file.js';

/** What the index knows of one stored block: its header, where its record is, and whether it is connected. */
export type IndexSlot = BlockHeader & { segment: number; offset: number; length: number; connected: boolean };

/** hash 32, parent hash 32, height u32, segment u16, flags u16, offset u32, length u32. */
export const SLOT_BYTES = 80;
const SHARDS = 64;
const FILE_HEAD = 16; // magic u32, version u32, capacity u32, count u32
const MAGIC = 0x53484958; // "SHIX"
const FIRST_CAPACITY = 64;
const PROBE_WINDOW = 8;
const CONNECTED = 1;

/** Encode a slot in its fixed 80-byte form. */
export function encodeSlot(slot: IndexSlot, into = Buffer.alloc(SLOT_BYTES), at = 0): Buffer {
  into.write(slot.hash.slice(2), at, 'hex');
  into.write(slot.parent_hash.slice(2), at + 32, 'hex');
  into.writeUInt32BE(slot.height, at + 64);
  into.writeUInt16BE(slot.segment, at + 68);
  into.writeUInt16BE(slot.connected ? CONNECTED : 0, at + 70);
  into.writeUInt32BE(slot.offset, at + 72);
  into.writeUInt32BE(slot.length, at + 76);
  return into;
}

/** True when the slot at `at` is free (an all-zero hash: no block hash is zero). */
function isFree(from: Buffer, at: number): boolean {
  for (let i = 0; i < 32; i += 8) if (from.readBigUInt64BE(at + i) !== 0n) return false;
  return true;
}

/** Decode the slot at `at`, or undefined for a free one. */
export function decodeSlot(from: Buffer, at = 0): IndexSlot | undefined {
  if (isFree(from, at)) return undefined;
  return {
    hash: `0x${from.toString('hex', at, at + 32)}`,
    parent_hash: `0x${from.toString('hex', at + 32, at + 64)}`,
    height: from.readUInt32BE(at + 64),
    segment: from.readUInt16BE(at + 68),
    connected: (from.readUInt16BE(at + 70) & CONNECTED) !== 0,
    offset: from.readUInt32BE(at + 72),
    length: from.readUInt32BE(at + 76),
  };
}

/** FNV-1a over the hash bytes, so that keys spread evenly even if they were not random. */
function keyOf(hash: Buffer, at = 0): number {
  let h = 0x811c9dc5;
  for (let i = at; i < at + 32; i++) h = Math.imul(h ^ hash[i], 0x01000193);
  return h >>> 0;
}

type Shard = { file: string; handle: FileHandle; capacity: number; count: number };

/**
 * Hash → slot, on disk: 64 shard files, each an open-addressing table of fixed 80-byte slots with
 * linear probing, doubled (rewritten to a temporary file, then renamed over) past 70% load. Lookups
 * are positional reads of a few slots; nothing is cached in memory, so size is bounded by disk only.
 */
export class HashIndex {
  readonly #shards: Shard[];

  private constructor(shards: Shard[]) {
    this.#shards = shards;
  }

  /** Open (creating when missing) the index in `dir`. */
  static async open(dir: string): Promise<HashIndex> {
    await mkdir(dir, { recursive: true });
    // Opened concurrently: creating 64 shards one after another was most of opening a new archive.
    const opened = await Promise.allSettled(
      Array.from({ length: SHARDS }, async (_, n) => {
        const file = join(dir, `${n.toString(16).padStart(2, '0')}.idx`);
        await rm(`${file}.tmp`, { force: true });
        return openShard(file);
      }),
    );
    const shards = opened.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
    const failed = opened.find((result) => result.status === 'rejected');
    if (failed) {
      await Promise.all(shards.map((shard) => shard.handle.close()));
      throw failed.reason;
    }
    return new HashIndex(shards);
  }

  /** The slot stored for `hash`, or undefined. */
  async get(hash: string): Promise<IndexSlot | undefined> {
    const wanted = Buffer.from(hash.slice(2), 'hex');
    const key = keyOf(wanted);
    const shard = this.#shards[key % SHARDS];
    const window = Buffer.allocUnsafe(PROBE_WINDOW * SLOT_BYTES);
    let index = Math.floor(key / SHARDS) & (shard.capacity - 1);
    for (let probed = 0; probed < shard.capacity;) {
      // Reading a few slots at once makes most lookups a single positional read. It is synchronous:
      // 640 bytes, nearly always from the page cache, cost less than a thread-pool round trip, and
      // every put of a new block probes once (half the time of putting a small block).
      const slots = Math.min(PROBE_WINDOW, shard.capacity - index);
      readSync(shard.handle.fd, window, 0, slots * SLOT_BYTES, FILE_HEAD + index * SLOT_BYTES);
      for (let at = 0; at < slots * SLOT_BYTES; at += SLOT_BYTES) {
        if (isFree(window, at)) return undefined;
        if (window.compare(wanted, 0, 32, at, at + 32) === 0) return decodeSlot(window, at);
      }
      probed += slots;
      index = (index + slots) & (shard.capacity - 1);
    }
    return undefined;
  }

  /** Insert or replace every slot, then make the touched shards durable. Re-running it is harmless. */
  async putMany(slots: Iterable<IndexSlot>): Promise<void> {
    const byShard = new Map<number, { key: number; slot: IndexSlot }[]>();
    for (const slot of slots) {
      const key = keyOf(Buffer.from(slot.hash.slice(2), 'hex'));
      const group = byShard.get(key % SHARDS) ?? [];
      group.push({ key, slot });
      byShard.set(key % SHARDS, group);
    }
    // Shards are independent files, so they are written concurrently: the I/O latency overlaps.
    await Promise.all([...byShard].map(([n, group]) => this.#putInShard(n, group)));
  }

  async #putInShard(n: number, group: { key: number; slot: IndexSlot }[]): Promise<void> {
    for (const { key, slot } of group) {
      // Grown before the write that would pass 70% load; growing replaces the shard and its handle.
      if ((this.#shards[n].count + 1) * 10 > this.#shards[n].capacity * 7)
        this.#shards[n] = await grow(this.#shards[n]);
      if (!(await writeSlot(this.#shards[n], key, slot))) {
        // Full despite the load check: the count on disk was short after a crash. Growing recounts.
        this.#shards[n] = await grow(this.#shards[n]);
        await writeSlot(this.#shards[n], key, slot);
      }
    }
    await writeHead(this.#shards[n]);
    await this.#shards[n].handle.sync();
  }

  /** Close every shard. */
  async close(): Promise<void> {
    for (const shard of this.#shards) await shard.handle.close();
  }
}

async function openShard(file: string): Promise<Shard> {
  const handle = await open(file, 'a+').then(async (created) => {
    // Positional writes are ignored in append mode, so the file is reopened read-write.
    await created.close();
    return open(file, 'r+');
  });
  const head = Buffer.alloc(FILE_HEAD);
  const { bytesRead } = await handle.read(head, 0, FILE_HEAD, 0);
  if (bytesRead === FILE_HEAD && head.readUInt32BE(0) === MAGIC) {
    return { file, handle, capacity: head.readUInt32BE(8), count: head.readUInt32BE(12) };
  }
  const shard = { file, handle, capacity: FIRST_CAPACITY, count: 0 };
  // Zeros written, not a sparse file cut to size: a slot written later then overwrites bytes the
  // disk already holds, which a full disk cannot cut short.
  await writeAll(handle, Buffer.alloc(FILE_HEAD + FIRST_CAPACITY * SLOT_BYTES), 0);
  await handle.truncate(FILE_HEAD + FIRST_CAPACITY * SLOT_BYTES);
  await writeHead(shard);
  return shard;
}

async function writeHead(shard: Shard): Promise<void> {
  const head = Buffer.alloc(FILE_HEAD);
  head.writeUInt32BE(MAGIC, 0);
  head.writeUInt32BE(1, 4);
  head.writeUInt32BE(shard.capacity, 8);
  head.writeUInt32BE(shard.count, 12);
  await writeAll(shard.handle, head, 0);
}

/** Write `slot` over its own entry or into the first free one, counting a new key; false when the table is full. */
async function writeSlot(shard: Shard, key: number, slot: IndexSlot): Promise<boolean> {
  const encoded = encodeSlot(slot);
  const probe = Buffer.allocUnsafe(SLOT_BYTES);
  let index = Math.floor(key / SHARDS) & (shard.capacity - 1);
  for (let probed = 0; probed < shard.capacity; probed++, index = (index + 1) & (shard.capacity - 1)) {
    const at = FILE_HEAD + index * SLOT_BYTES;
    await shard.handle.read(probe, 0, SLOT_BYTES, at);
    const free = isFree(probe, 0);
    if (!free && probe.compare(encoded, 0, 32, 0, 32) !== 0) continue;
    await writeAll(shard.handle, encoded, at);
    // The count on disk is rewritten once a batch: a crash can leave it short by that batch, which only
    // makes the table grow a little later (growing recounts), never lose a key.
    if (free) shard.count++;
    return true;
  }
  return false;
}

/** Rehash a shard into a table twice as large; the rename makes the switch atomic. */
async function grow(shard: Shard): Promise<Shard> {
  const capacity = shard.capacity * 2;
  const old = Buffer.alloc(shard.capacity * SLOT_BYTES);
  await shard.handle.read(old, 0, old.length, FILE_HEAD);
  const table = Buffer.alloc(FILE_HEAD + capacity * SLOT_BYTES);
  let count = 0;
  for (let at = 0; at < old.length; at += SLOT_BYTES) {
    if (isFree(old, at)) continue;
    let index = Math.floor(keyOf(old, at) / SHARDS) & (capacity - 1);
    while (!isFree(table, FILE_HEAD + index * SLOT_BYTES)) index = (index + 1) & (capacity - 1);
    old.copy(table, FILE_HEAD + index * SLOT_BYTES, at, at + SLOT_BYTES);
    count++;
  }
  table.writeUInt32BE(MAGIC, 0);
  table.writeUInt32BE(1, 4);
  table.writeUInt32BE(capacity, 8);
  table.writeUInt32BE(count, 12);
  const temporary = await open(`${shard.file}.tmp`, 'w');
  try {
    await writeAll(temporary, table, 0);
    await temporary.sync();
  } finally {
    await temporary.close();
  }
  // The old table stays in use until the new one has its name: a failure before leaves the shard usable.
  const handle = await open(`${shard.file}.tmp`, 'r+');
  try {
    await rename(`${shard.file}.tmp`, shard.file);
  } catch (err) {
    await handle.close();
    throw err;
  }
  const replaced = shard.handle;
  Object.assign(shard, { handle, capacity, count });
  await replaced.close().catch(() => undefined);
  await syncDirectory(dirname(shard.file));
  return shard;
}
