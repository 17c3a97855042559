import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'chai';
import { PgBlockStore } from '../../../adapters/store-postgres/pg-block-store.js';
import { runImport } from '../../../apps/cli/import-command.js';
import { ChainBuilder } from '../../support/block-builder.js';
import { openTestDatabase, postgresAvailable, TEST_DATABASE_URL } from '../../support/postgres.js';
import { makeTempDir } from '../../support/temp-dir.js';

if (!(await postgresAvailable())) {
  describe('stackhooks import into Postgres', () => {
    it(`needs PostgreSQL at ${TEST_DATABASE_URL}, which did not answer (set STACKHOOKS_TEST_DATABASE_URL)`);
  });
} else {
  describe('stackhooks import into Postgres', function () {
    this.timeout(60_000);

    it('archives every block of a TSV in batches, and a second run archives nothing new', async () => {
      const dir = await makeTempDir();
      const db = await openTestDatabase('import');
      try {
        const chain = new ChainBuilder();
        const blocks = Array.from({ length: 620 }, () => chain.next());
        const file = join(dir, 'chain.tsv');
        await writeFile(
          file,
          blocks
            .map((b, i) => `${i + 1}\t2024-01-01 00:00:00+00\t/new_block\t${JSON.stringify(b)}\n`)
            .join(''),
        );
        const options = { dataDir: join(dir, 'data'), network: 'mainnet' as const, databaseUrl: db.url };
        const first = await runImport(file, options);
        expect(first).to.include({ blocks: 620, archived: 620 });
        const again = await runImport(file, options);
        expect(again).to.include({ blocks: 620, archived: 0 });
        const store = new PgBlockStore(db);
        expect(await store.count()).to.equal(620);
        expect((await store.tip())?.hash).to.equal(blocks[619].index_block_hash);
      } finally {
        await db.drop();
        await rm(dir, { recursive: true, force: true });
      }
    });
  });
}
