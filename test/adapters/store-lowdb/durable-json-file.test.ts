import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'chai';
import { DurableJsonFile } from '../../../adapters/store-lowdb/durable-json-file.js';
import { makeTempDir } from '../../support/temp-dir.js';

describe('DurableJsonFile', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await makeTempDir('stackhooks-durable-json-');
  });
  afterEach(async () => rm(dir, { recursive: true, force: true }));

  it('reads null when the file does not exist yet', async () => {
    expect(await new DurableJsonFile(join(dir, 'store.json')).read()).to.equal(null);
  });

  it('writes compact JSON under the name and leaves no temporary behind', async () => {
    const file = new DurableJsonFile<{ a: number[] }>(join(dir, 'store.json'));
    await file.write({ a: [1, 2] });
    expect(await readFile(join(dir, 'store.json'), 'utf8')).to.equal('{"a":[1,2]}');
    expect(await readdir(dir)).to.deep.equal(['store.json']);
    expect(await file.read()).to.deep.equal({ a: [1, 2] });
  });

  it('ignores a half-written temporary a crash left and replaces it on the next write', async () => {
    const path = join(dir, 'store.json');
    const file = new DurableJsonFile<{ n: number }>(path);
    await file.write({ n: 1 });
    await writeFile(`${path}.tmp`, '{"n":');
    expect(await file.read()).to.deep.equal({ n: 1 });
    await file.write({ n: 2 });
    expect(await file.read()).to.deep.equal({ n: 2 });
    expect(await readdir(dir)).to.deep.equal(['store.json']);
  });

  it('refuses a file that is not JSON instead of reading it as empty', async () => {
    const path = join(dir, 'store.json');
    await writeFile(path, '{"n":');
    let error: unknown;
    await new DurableJsonFile(path).read().catch((err: unknown) => (error = err));
    expect(error).to.be.instanceOf(SyntaxError);
  });
});
