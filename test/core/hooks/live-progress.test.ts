import { expect } from 'chai';
import fc from 'fast-check';
import type { HookOptions } from '../../../core/hooks/definition.js';
import { createHook, setEnabled } from '../../../core/hooks/lifecycle.js';
import {
  LIVE_STREAM_START,
  advanceProgress,
  rebase,
  shownStatus,
  withLiveProgress,
} from '../../../core/hooks/live-progress.js';
import type { StoredHook } from '../../../core/hooks/record.js';
import { sampleDefinition } from '../../support/definitions.js';

function hook(options: HookOptions = { enable_on_registration: true }): StoredHook {
  const definition = sampleDefinition({ options }) as StoredHook['definition'];
  return createHook('alice', '3f7a9c1e-0000-4000-8000-000000000001', definition, 1_700_000_000_000);
}

const progress = { evaluated: 10, last_height: 120, last_at: 1_700_000_500 };

describe('live stream progress', () => {
  it('advances by the blocks of a step and takes its height and time', () => {
    expect(advanceProgress(LIVE_STREAM_START, { blocks: 3, height: 9, at: 90 })).to.deep.equal({
      evaluated: 3,
      last_height: 9,
      last_at: 90,
    });
  });

  it('stays where it was for a step of no blocks', () => {
    expect(advanceProgress(progress, { blocks: 0, height: 1, at: 1 })).to.equal(progress);
  });

  it('shows a live hook stored at an earlier position as streaming, with the blocks since counted', () => {
    expect(withLiveProgress(hook(), 6, progress).status).to.include({
      status: 'streaming',
      evaluated_block_count: 4,
      last_evaluated_block_height: 120,
      last_evaluated_at: 1_700_000_500,
    });
  });

  it('shows a hook stored at the current position, or ahead of it, as stored', () => {
    const stored = hook();
    expect(withLiveProgress(stored, 10, progress)).to.equal(stored);
    expect(withLiveProgress(stored, 11, progress)).to.equal(stored);
  });

  it('shows a disabled or expired hook as stored whatever the stream did', () => {
    const disabled = setEnabled(hook(), false);
    expect(withLiveProgress(disabled, 0, progress)).to.equal(disabled);
    const expired = { ...hook(), status: { ...hook().status, status: 'expired' as const } };
    expect(withLiveProgress(expired, 0, progress)).to.equal(expired);
  });

  it('caps the count at the evaluation limit and shows the hook expired and disabled', () => {
    const limited = hook({ enable_on_registration: true, expire_after_evaluations: 3 });
    expect(withLiveProgress(limited, 0, progress).status).to.include({
      status: 'expired',
      enabled: false,
      evaluated_block_count: 3,
    });
  });

  it('gives the status and enabled withLiveProgress shows, whatever the hook, position and limits', () => {
    const limit = fc.option(fc.integer({ min: 1, max: 20 }), { nil: undefined });
    fc.assert(
      fc.property(
        fc.record({
          enabled: fc.boolean(),
          status: fc.constantFrom('new', 'streaming', 'expired', 'interrupted' as const),
          evaluations: limit,
          occurrences: limit,
          counted: fc.integer({ min: 0, max: 20 }),
          occurred: fc.integer({ min: 0, max: 20 }),
          base: fc.integer({ min: 0, max: 20 }),
          resuming: fc.boolean(),
        }),
        (c) => {
          const options: HookOptions = {
            expire_after_evaluations: c.evaluations,
            expire_after_occurrences: c.occurrences,
          };
          const made = hook(options);
          const stored: StoredHook = {
            ...made,
            status: {
              ...made.status,
              enabled: c.enabled,
              status: c.status,
              evaluated_block_count: c.counted,
              occurrence_count: c.occurred,
            },
            ...(c.resuming && {
              delivery: { resuming: { from_block_height: 1, next_block_height: 2, rewinds: 0 } } as never,
            }),
          };
          const { status, enabled } = withLiveProgress(stored, c.base, progress).status;
          const shown = shownStatus(stored, c.base, progress);
          expect({ status: shown.status, enabled: shown.enabled }).to.deep.equal({ status, enabled });
        },
      ),
    );
  });

  it('rebases a hook read behind the progress on the progress, and one read ahead on its own position', () => {
    expect(rebase(4, progress)).to.equal(10);
    expect(rebase(12, progress)).to.equal(12);
  });
});
