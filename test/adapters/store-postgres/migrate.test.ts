import { expect } from 'chai';
import { listMigrations } from '../../../adapters/store-postgres/migrate.js';

describe('listMigrations', () => {
  it('gives every migration a version of its own, in order from 1 with no gap', async () => {
    // Two files of one number (two changes landing at once) would fail every start on Postgres.
    const versions = (await listMigrations()).map((m) => m.version);
    expect(versions).to.deep.equal(versions.map((_, i) => i + 1));
  });
});
