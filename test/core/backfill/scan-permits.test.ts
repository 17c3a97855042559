import { expect } from 'chai';
import { ScanPermits } from '../../../core/backfill/scan-permits.js';

const request = (id: string, owner: string, created_at: number) => ({ id, owner, created_at });

describe('ScanPermits', () => {
  it('grants no more permits than its limit', async () => {
    const permits = new ScanPermits(2);
    const granted: string[] = [];
    for (const id of ['a', 'b', 'c']) void permits.acquire(request(id, id, 0)).then(() => granted.push(id));
    await Promise.resolve();
    expect(granted).to.deep.equal(['a', 'b']);
    expect(permits.busy).to.equal(2);
  });

  it('gives a freed permit to the owner holding fewest, before an older backfill of a busier owner', async () => {
    const permits = new ScanPermits(2);
    await permits.acquire(request('a1', 'alice', 1));
    await permits.acquire(request('a2', 'alice', 2));
    const granted: string[] = [];
    void permits.acquire(request('a3', 'alice', 3)).then(() => granted.push('a3'));
    void permits.acquire(request('b1', 'bob', 9)).then(() => granted.push('b1'));
    permits.release('alice');
    await Promise.resolve();
    expect(granted).to.deep.equal(['b1']);
    permits.release('alice');
    await Promise.resolve();
    expect(granted).to.deep.equal(['b1', 'a3']);
  });

  it('among owners holding as many, gives a freed permit to the oldest backfill', async () => {
    const permits = new ScanPermits(1);
    await permits.acquire(request('x', 'carol', 0));
    const granted: string[] = [];
    void permits.acquire(request('late', 'dave', 5)).then(() => granted.push('late'));
    void permits.acquire(request('early', 'erin', 2)).then(() => granted.push('early'));
    permits.release('carol');
    await Promise.resolve();
    expect(granted).to.deep.equal(['early']);
  });
});
