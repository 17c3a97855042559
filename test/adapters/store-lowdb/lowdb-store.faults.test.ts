import { expect } from 'chai';
import { openLowdbStore } from '../../../adapters/store-lowdb/index.js';
import { StackhooksError } from '../../../core/hooks/errors.js';
import { diskFaults, withFaultyDisk } from '../../support/faulty-disk.js';

const FAULTS = diskFaults({ rooms: [0, 10, 60, 200], writes: [1], syncs: [1] });

const secret = (n: number) => n.toString(16).padStart(64, '0');

describe('the lowdb store under disk faults', () => {
  const { disk, dir } = withFaultyDisk('stackhooks-lowdb-faults-');

  for (const fault of FAULTS) {
    it(`refuses a change the disk could not take with a 503 and keeps the acknowledged ones, after ${fault.name}`, async () => {
      const store = await openLowdbStore(dir());
      for (let n = 1; n <= 3; n++) await store.accounts.setConsumerSecret(`owner-${n}`, secret(n));
      fault.inject(disk);
      // A name longer than the largest room, so the journal line cannot fit however the fault falls.
      const refused = await store.accounts
        .setConsumerSecret('owner-4'.padEnd(400, '-'), secret(4))
        .catch((err: unknown) => err);
      expect(refused).to.be.instanceOf(StackhooksError).with.property('code', 'unavailable');
      disk.heal();
      await store.accounts.setConsumerSecret('owner-5', secret(5));
      await store.close();
      disk.uninstall();
      const again = await openLowdbStore(dir());
      for (const n of [1, 2, 3, 5])
        expect(await again.accounts.getConsumerSecret(`owner-${n}`)).to.equal(secret(n));
      await again.close();
      await disk.install();
    });

    it(`keeps the last acknowledged file whole when it stops while the disk still fails, after ${fault.name}`, async () => {
      const store = await openLowdbStore(dir());
      for (let n = 1; n <= 3; n++) await store.accounts.setConsumerSecret(`owner-${n}`, secret(n));
      fault.inject(disk);
      await store.accounts.setConsumerSecret('owner-4', secret(4)).catch(() => undefined);
      await store.close().catch(() => undefined);
      disk.heal();
      disk.uninstall();
      const again = await openLowdbStore(dir());
      for (const n of [1, 2, 3])
        expect(await again.accounts.getConsumerSecret(`owner-${n}`)).to.equal(secret(n));
      await again.close();
      await disk.install();
    });
  }
});
