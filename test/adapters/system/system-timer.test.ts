import { expect } from 'chai';
import { SystemTimer } from '../../../adapters/system/index.js';

describe('SystemTimer', () => {
  it('ends a wait once its time has passed', async () => {
    const wait = new SystemTimer().wait(5);
    expect(await wait.elapsed.then(() => 'elapsed')).to.equal('elapsed');
  });

  it('never ends a cancelled wait', async () => {
    const timer = new SystemTimer();
    const cancelled = timer.wait(5);
    cancelled.cancel();
    const outcome = await Promise.race([
      cancelled.elapsed.then(() => 'elapsed'),
      timer.wait(50).elapsed.then(() => 'still waiting'),
    ]);
    expect(outcome).to.equal('still waiting');
  });
});
