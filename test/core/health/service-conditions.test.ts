import { expect } from 'chai';
import { ServiceConditions } from '../../../core/health/service-conditions.js';

describe('ServiceConditions', () => {
  it('keeps the first time a condition was raised when it is raised again with a new reason', () => {
    const conditions = new ServiceConditions();
    expect(conditions.raise('storage_full', 'no space left', 1000)).to.equal(true);
    expect(conditions.raise('storage_full', 'still no space', 2000)).to.equal(false);
    expect(conditions.list()).to.deep.equal([
      { name: 'storage_full', reason: 'still no space', since: 1000 },
    ]);
  });

  it('tells listeners of a raise and a clear once each', () => {
    const conditions = new ServiceConditions();
    const heard: string[] = [];
    conditions.onChange((c, raised) => heard.push(`${raised ? '+' : '-'}${c.name}`));
    conditions.raise('database_unreachable', 'connect ECONNREFUSED', 1);
    conditions.raise('database_unreachable', 'connect ECONNREFUSED', 2);
    conditions.clear('database_unreachable');
    conditions.clear('database_unreachable');
    expect(heard).to.deep.equal(['+database_unreachable', '-database_unreachable']);
    expect(conditions.has('database_unreachable')).to.equal(false);
  });

  it('gives copies, so a caller cannot change what is raised', () => {
    const conditions = new ServiceConditions();
    conditions.raise('ingest_inactive', 'waiting for the lock', 5);
    conditions.list()[0].reason = 'changed';
    expect(conditions.list()[0].reason).to.equal('waiting for the lock');
  });
});
