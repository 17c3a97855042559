import { expect } from 'chai';
import type { EventLog } from '../../core/ports/event-log.js';

/** An event log under test; `reopen` opens the same data again (a restart). */
export type EventLogSubject = {
  log: EventLog;
  reopen: () => Promise<EventLog>;
  cleanup: () => Promise<void>;
};

/** The behaviour every EventLog must show; run it against each adapter with a fresh, empty log. */
export function eventLogContract(name: string, open: () => Promise<EventLogSubject>): void {
  describe(`EventLog contract: ${name}`, () => {
    let subject: EventLogSubject;
    beforeEach(async () => {
      subject = await open();
    });
    afterEach(async () => subject.cleanup());

    it('numbers entries from 1 in arrival order and reads them back unchanged', async () => {
      const { log } = subject;
      expect(await log.append('/new_block', '{"a":1}', 10)).to.equal(1);
      expect(await log.append('/new_burn_block', '{"b":"\\t"}', 11)).to.equal(2);
      expect(log.lastId()).to.equal(2);
      expect(await log.readAfter(0, 10)).to.deep.equal([
        { id: 1, received_at: 10, path: '/new_block', body: '{"a":1}' },
        { id: 2, received_at: 11, path: '/new_burn_block', body: '{"b":"\\t"}' },
      ]);
    });

    it('reads at most the limit, after the given id', async () => {
      for (let i = 0; i < 5; i++) await subject.log.append('/p', `{"i":${i}}`, i);
      expect((await subject.log.readAfter(1, 2)).map((e) => e.id)).to.deep.equal([2, 3]);
      expect(await subject.log.readAfter(5, 10)).to.deep.equal([]);
    });

    it('starts with nothing processed and no note', async () => {
      expect(await subject.log.processedId()).to.equal(0);
      expect(await subject.log.processedNote()).to.equal(undefined);
    });

    it('keeps entries, the processed mark and its note across a reopen', async () => {
      for (let i = 0; i < 3; i++) await subject.log.append('/p', `{"i":${i}}`, i);
      await subject.log.markProcessed(2, '{"tip":"0xab"}');
      const again = await subject.reopen();
      expect(again.lastId()).to.equal(3);
      expect(await again.processedId()).to.equal(2);
      expect(await again.processedNote()).to.equal('{"tip":"0xab"}');
      expect((await again.readAfter(2, 10)).map((e) => e.body)).to.deep.equal(['{"i":2}']);
      expect(await again.append('/p', '{}', 9)).to.equal(4);
    });

    it('keeps the note of the newest mark when an older mark comes after it', async () => {
      for (let i = 0; i < 3; i++) await subject.log.append('/p', `{"i":${i}}`, i);
      await subject.log.markProcessed(3, '{"tip":"0x03"}');
      await subject.log.markProcessed(2, '{"tip":"0x02"}');
      expect(await subject.log.processedId()).to.equal(3);
      expect(await subject.log.processedNote()).to.equal('{"tip":"0x03"}');
      const again = await subject.reopen();
      expect(await again.processedNote()).to.equal('{"tip":"0x03"}');
      await again.markProcessed(3, '{"tip":"0x03b"}');
      expect(await again.processedNote()).to.equal('{"tip":"0x03b"}');
    });

    it('tells its newest entry and the processed mark, also after a reopen', async () => {
      expect(await subject.log.position()).to.deep.equal({ newest: undefined, processed: 0 });
      await subject.log.append('/new_block', '{}', 100);
      await subject.log.append('/new_block', '{}', 250);
      await subject.log.markProcessed(1);
      expect(await subject.log.position()).to.deep.equal({
        newest: { id: 2, received_at: 250 },
        processed: 1,
      });
      const again = await subject.reopen();
      expect(await again.position()).to.deep.equal({ newest: { id: 2, received_at: 250 }, processed: 1 });
    });

    it('numbers concurrent appends without a gap or a repeat', async () => {
      const ids = await Promise.all(
        Array.from({ length: 50 }, (_, i) => subject.log.append('/p', `{"i":${i}}`, i)),
      );
      expect([...ids].sort((a, b) => a - b)).to.deep.equal(Array.from({ length: 50 }, (_, i) => i + 1));
      expect((await subject.log.readAfter(0, 100)).map((e) => e.id)).to.deep.equal(
        ids.slice().sort((a, b) => a - b),
      );
    });
  });
}
