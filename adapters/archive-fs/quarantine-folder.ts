import { mkdir, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { QuarantineEntry, QuarantinedBody } from '../../core/ports/block-store.js';
import { writeFileDurably } from './durable-file.js';

const NAME = /^(\d{12})\.json$/;

/**
 * Bodies that could not become blocks, one JSON file each (`000000000001.json`, numbered in the order
 * they came), beside the archive. Poison is rare and small next to the chain, so a file apiece keeps
 * it readable by hand; only the count and the last number are kept in memory.
 */
export class QuarantineFolder {
  readonly #dir: string;
  #count: number;
  #last: number;

  private constructor(dir: string, numbers: number[]) {
    this.#dir = dir;
    this.#count = numbers.length;
    this.#last = numbers.length === 0 ? 0 : Math.max(...numbers);
  }

  /** Open (creating when missing) the folder. */
  static async open(dir: string): Promise<QuarantineFolder> {
    await mkdir(dir, { recursive: true });
    return new QuarantineFolder(dir, await numbersIn(dir));
  }

  /** How many bodies are kept. */
  get count(): number {
    return this.#count;
  }

  /** Keep a body durably. */
  async add(body: QuarantinedBody): Promise<void> {
    const number = this.#last + 1;
    await writeFileDurably(join(this.#dir, fileName(number)), JSON.stringify(body));
    this.#last = number;
    this.#count++;
  }

  /** The latest `limit` entries, newest first, without their bodies. */
  async recent(limit: number): Promise<QuarantineEntry[]> {
    const numbers = (await numbersIn(this.#dir)).sort((a, b) => b - a).slice(0, limit);
    return Promise.all(
      numbers.map(async (number) => {
        const { body: _body, ...entry } = JSON.parse(
          await readFile(join(this.#dir, fileName(number)), 'utf8'),
        ) as QuarantinedBody;
        return entry;
      }),
    );
  }
}

function fileName(number: number): string {
  return `${String(number).padStart(12, '0')}.json`;
}

async function numbersIn(dir: string): Promise<number[]> {
  return (await readdir(dir)).flatMap((name) => {
    const match = NAME.exec(name);
    return match ? [Number(match[1])] : [];
  });
}
