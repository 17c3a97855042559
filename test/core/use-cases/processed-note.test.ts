import { expect } from 'chai';
import { readProcessedNote, writeProcessedNote } from '../../../core/use-cases/processed-note.js';

describe('readProcessedNote', () => {
  it('reads back what writeProcessedNote wrote', () => {
    const note = { tip: '0xab', block: { id: 7, received_at: 1_700_000_000_000 } };
    expect(readProcessedNote(writeProcessedNote(note))).to.deep.equal(note);
  });

  it('reads a note written before the last block was kept', () => {
    expect(readProcessedNote('{"tip":"0xab"}')).to.deep.equal({ tip: '0xab' });
  });

  it('answers undefined for no note, or one that is not ours', () => {
    expect(readProcessedNote(undefined)).to.equal(undefined);
    expect(readProcessedNote('later')).to.equal(undefined);
    expect(readProcessedNote('{"line":3}')).to.equal(undefined);
  });

  it('drops a last block whose fields are not numbers', () => {
    expect(readProcessedNote('{"tip":null,"block":{"id":"x"}}')).to.deep.equal({ tip: null });
  });
});
