import { chmod, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'chai';
import { LIVE_LOG_FILE_NAME } from '../../../adapters/store-lowdb/live-log.js';
import { openLowdbStore, STORE_FILE_NAME } from '../../../adapters/store-lowdb/index.js';
import { makeTempDir } from '../../support/temp-dir.js';

const modeOf = async (path: string) => (await stat(path)).mode & 0o777;

describe('StoreFile file modes', () => {
  let base: string;
  beforeEach(async () => {
    base = await makeTempDir('stackhooks-store-modes-');
  });
  afterEach(async () => rm(base, { recursive: true, force: true }));

  it('creates the data folder 0700 and writes the file with secrets and key hashes 0600', async () => {
    const dataDir = join(base, 'data');
    const store = await openLowdbStore(dataDir);
    await store.accounts.setConsumerSecret('owner-1', 'ab'.repeat(32));
    await store.close();
    expect(await modeOf(dataDir)).to.equal(0o700);
    expect(await modeOf(join(dataDir, STORE_FILE_NAME))).to.equal(0o600);
  });

  it('makes store files an earlier version left readable by others 0600 when it opens', async () => {
    for (const name of [STORE_FILE_NAME, LIVE_LOG_FILE_NAME]) {
      await writeFile(join(base, name), 'null');
      await chmod(join(base, name), 0o644);
    }
    const store = await openLowdbStore(base);
    await store.close();
    expect(await modeOf(join(base, STORE_FILE_NAME))).to.equal(0o600);
    expect(await modeOf(join(base, LIVE_LOG_FILE_NAME))).to.equal(0o600);
  });
});
