import { inject, injectable } from 'inversify';
import type { NormalizedBlock } from '../chain/block.js';
import { StackhooksError, hookNotFound } from '../hooks/errors.js';
import type { StoredHook } from '../hooks/record.js';
import { BLOCK_STORE, type BlockStore } from '../ports/block-store.js';
import { HOOK_REPOSITORY, type HookRepository } from '../ports/hook-repository.js';
import { INPUT_VALIDATOR, type InputValidator } from '../ports/input-validator.js';

/** Runs an accepted evaluation: match one archived block and deliver what matches. */
export interface EvaluationRunner {
  /** Evaluate `block` against `hook` in the background; counters and status never change. */
  run(hook: StoredHook, block: NormalizedBlock): void;
}

export const EVALUATION_RUNNER = Symbol.for('stackhooks.EvaluationRunner');

/** `POST /me/{uuid}/evaluate`: find the hook and the archived block, then hand them to the runner. */
@injectable()
export class HookEvaluations {
  constructor(
    @inject(HOOK_REPOSITORY) private readonly hooks: HookRepository,
    @inject(BLOCK_STORE) private readonly blocks: BlockStore,
    @inject(INPUT_VALIDATOR) private readonly input: InputValidator,
    @inject(EVALUATION_RUNNER) private readonly runner: EvaluationRunner,
  ) {}

  /** Accept an evaluation request; unknown hook or block is `not_found`. */
  async request(owner: string, uuid: unknown, body: unknown): Promise<void> {
    const id = this.input.check('uuid', uuid).toLowerCase();
    const target = this.input.check('evaluate', body);
    const hook = await this.hooks.get(owner, id);
    if (!hook) throw hookNotFound(id);
    const block = await this.findBlock(target);
    this.runner.run(hook, block);
  }

  // The hash wins when both are given, as in Hiro's API.
  private async findBlock(target: {
    block_height?: number;
    index_block_hash?: string;
  }): Promise<NormalizedBlock> {
    if (target.index_block_hash !== undefined) {
      const hash = normalizeHash(target.index_block_hash);
      const block = await this.blocks.getByHash(hash);
      if (!block) throw new StackhooksError('not_found', `block ${hash} is not in the archive`);
      return block;
    }
    const height = target.block_height as number;
    const block = await this.blocks.getCanonicalAt(height);
    if (!block)
      throw new StackhooksError('not_found', `no canonical block at height ${height} in the archive`);
    return block;
  }
}

/** Block hashes are 0x-prefixed lowercase hex everywhere; `0x` is optional on input. */
export function normalizeHash(hash: string): string {
  const hex = hash.toLowerCase();
  return hex.startsWith('0x') ? hex : `0x${hex}`;
}
