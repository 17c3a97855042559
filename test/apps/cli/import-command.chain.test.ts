import { expect } from 'chai';
import { chainLines, type ImportSummary } from '../../../apps/cli/import-command.js';

const quiet: ImportSummary = {
  blocks: 10,
  archived: 10,
  skippedLines: 0,
  seconds: 1,
  resumedFromLine: 0,
  unnamedCalls: 0,
  unnamedContracts: 0,
  gapsOpened: 0,
  gapsClosed: 0,
  unreadableBlocks: 0,
  quarantinedBodies: 0,
  openGaps: [],
};

const gap = (from: number, to: number) => ({
  from_height: from,
  to_height: to,
  above: { hash: `0x${'a'.repeat(64)}`, height: to + 1, parent_hash: `0x${'b'.repeat(64)}` },
  opened_by: `0x${'a'.repeat(64)}`,
  opened_at: 0,
});

describe('chainLines', () => {
  it('says nothing when the import left the chain whole', () => {
    expect(chainLines(quiet)).to.deep.equal([]);
  });

  it('tells the gaps closed and opened, unreadable and quarantined bodies, and the gaps still open', () => {
    expect(
      chainLines({
        ...quiet,
        gapsClosed: 1,
        gapsOpened: 2,
        unreadableBlocks: 3,
        quarantinedBodies: 4,
        openGaps: [gap(5, 9), gap(20, 20)],
      }),
    ).to.deep.equal([
      'closed 1 gap(s) in the chain (nothing was delivered for them)',
      'opened 2 gap(s): the recording skips blocks',
      '3 block(s) archived with transactions that could not be read',
      '4 body(ies) could not become a block and were quarantined',
      'the chain still misses heights 5 to 9',
      'the chain still misses heights 20 to 20',
    ]);
  });

  it('lists at most five open gaps and counts the rest', () => {
    const openGaps = Array.from({ length: 7 }, (_, i) => gap(i * 10, i * 10 + 2));
    const lines = chainLines({ ...quiet, openGaps });
    expect(lines).to.have.length(6);
    expect(lines[5]).to.equal('... and 2 more gap(s) (see the status route)');
  });
});
