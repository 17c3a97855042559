import type { AppliedBlockRef, BlockRef } from '../../core/delivery/delivery-record.js';
import { sameApplied, sameBlocks } from './block-refs.js';
import { metaOf, type PayloadMeta } from './outbox-entry.js';

/**
 * The JSON text of a payload's metadata without its closing brace: exactly
 * `JSON.stringify(metaOf(meta)).slice(0, -1)`, put together field by field. A block's thousand
 * payloads name the same blocks, so the text of their block lists is made once and reused while it
 * repeats; `JSON.stringify` of the whole object would make it again for every payload. Fields of
 * any other kind (not a finite number, not a string) go through `JSON.stringify` of the whole.
 */
export class MetaText {
  private lastApply: readonly AppliedBlockRef[] = [];
  private lastApplyText = '[]';
  private lastRollback: readonly BlockRef[] = [];
  private lastRollbackText = '[]';

  /** The metadata's text, its closing brace left off (the record goes on with more fields). */
  open(meta: PayloadMeta): string {
    const { id, hook_uuid, owner, url, kind, created_at } = meta;
    if (
      typeof id !== 'string' ||
      typeof hook_uuid !== 'string' ||
      typeof owner !== 'string' ||
      typeof url !== 'string' ||
      typeof kind !== 'string' ||
      !Number.isFinite(created_at)
    )
      return JSON.stringify(metaOf(meta)).slice(0, -1);
    const apply = this.applyText(meta.apply);
    const rollback = this.rollbackText(meta.rollback);
    if (apply === undefined || rollback === undefined) return JSON.stringify(metaOf(meta)).slice(0, -1);
    return (
      `{"id":${JSON.stringify(id)},"hook_uuid":${JSON.stringify(hook_uuid)},"owner":${JSON.stringify(owner)},` +
      `"url":${JSON.stringify(url)},"kind":${JSON.stringify(kind)},"apply":${apply},"rollback":${rollback},` +
      `"created_at":${created_at}`
    );
  }

  private applyText(refs: readonly AppliedBlockRef[]): string | undefined {
    if (sameApplied(refs, this.lastApply)) return this.lastApplyText;
    let text = '[';
    for (let i = 0; i < refs.length; i++) {
      const { index, hash, tx_indexes } = refs[i];
      if (!Number.isFinite(index) || typeof hash !== 'string' || !tx_indexes.every(Number.isFinite))
        return undefined;
      text += `${i > 0 ? ',' : ''}{"index":${index},"hash":${JSON.stringify(hash)},"tx_indexes":[${tx_indexes.join(',')}]}`;
    }
    this.lastApply = refs;
    return (this.lastApplyText = `${text}]`);
  }

  private rollbackText(refs: readonly BlockRef[]): string | undefined {
    if (sameBlocks(refs, this.lastRollback)) return this.lastRollbackText;
    let text = '[';
    for (let i = 0; i < refs.length; i++) {
      const { index, hash } = refs[i];
      if (!Number.isFinite(index) || typeof hash !== 'string') return undefined;
      text += `${i > 0 ? ',' : ''}{"index":${index},"hash":${JSON.stringify(hash)}}`;
    }
    this.lastRollback = refs;
    return (this.lastRollbackText = `${text}]`);
  }
}
