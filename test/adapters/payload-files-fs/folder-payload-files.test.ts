import { mkdir, readdir, readFile, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { expect } from 'chai';
import { createFolderPayloadFiles } from '../../../adapters/payload-files-fs/index.js';
import type { FilePlacement } from '../../../core/ports/payload-files.js';
import { makeTempDir } from '../../support/temp-dir.js';

function urlOf(placement: FilePlacement): string {
  if ('refusal' in placement) throw new Error(`refused: ${placement.refusal}`);
  return placement.url;
}

function refusalOf(placement: FilePlacement): string {
  if (!('refusal' in placement)) throw new Error(`placed at ${placement.url}`);
  return placement.refusal;
}

describe('FolderPayloadFiles', () => {
  let base: string;
  let folder: string;
  let outside: string;

  beforeEach(async () => {
    base = await realpath(await makeTempDir());
    folder = join(base, 'appends');
    outside = join(base, 'elsewhere');
    await mkdir(folder);
    await mkdir(outside);
  });
  afterEach(() => rm(base, { recursive: true, force: true }));

  const files = () => createFolderPayloadFiles({ folder, offReason: 'is off here' });

  it('places a relative path inside the folder, and an absolute one that is inside it', async () => {
    expect(urlOf(await files().place('out/transfers.jsonl'))).to.equal(
      pathToFileURL(join(folder, 'out/transfers.jsonl')).href,
    );
    expect(urlOf(await files().place(join(folder, 'a.jsonl')))).to.equal(
      pathToFileURL(join(folder, 'a.jsonl')).href,
    );
  });

  it('makes the folder when it does not exist yet', async () => {
    const later = createFolderPayloadFiles({ folder: join(base, 'later'), offReason: 'is off here' });
    expect(urlOf(await later.place('a.jsonl'))).to.equal(pathToFileURL(join(base, 'later', 'a.jsonl')).href);
  });

  it('refuses every path with the reason it was given when no folder is named', async () => {
    const off = createFolderPayloadFiles({ folder: undefined, offReason: 'is off here' });
    expect(refusalOf(await off.place('a.jsonl'))).to.equal('is off here');
  });

  it('refuses a path that leaves the folder by .. or names an absolute path elsewhere', async () => {
    expect(refusalOf(await files().place('../elsewhere/a.jsonl'))).to.match(/leaves the file_append folder/);
    expect(refusalOf(await files().place('out/../../a.jsonl'))).to.match(/leaves the file_append folder/);
    expect(refusalOf(await files().place(join(outside, 'a.jsonl')))).to.match(
      /leaves the file_append folder/,
    );
  });

  it('refuses a path that leaves the folder through a symbolic link to a folder', async () => {
    await symlink(outside, join(folder, 'link'));
    expect(refusalOf(await files().place('link/a.jsonl'))).to.match(/through a symbolic link/);
  });

  it('refuses a path naming a symbolic link or the folder itself', async () => {
    await symlink(join(outside, 'target.jsonl'), join(folder, 'file-link'));
    expect(refusalOf(await files().place('file-link'))).to.match(/symbolic link/);
    expect(refusalOf(await files().place('.'))).to.match(/not a file/);
  });

  it('appends each body as one line, in order, creating missing folders', async () => {
    const target = files();
    const url = urlOf(await target.place('out/deeper/a.jsonl'));
    for (const n of [1, 2, 3]) {
      const result = await target.append(url, JSON.stringify({ n }));
      expect(result.status).to.equal(200);
    }
    const text = await readFile(fileURLToPath(url), 'utf8');
    expect(text).to.equal('{"n":1}\n{"n":2}\n{"n":3}\n');
  });

  it('keeps lines whole when many appends to one file run at once', async () => {
    const target = files();
    const url = urlOf(await target.place('shared.jsonl'));
    const big = 'x'.repeat(256 * 1024);
    const bodies = Array.from({ length: 20 }, (_, n) => JSON.stringify({ n, big }));
    const results = await Promise.all(bodies.map((body) => target.append(url, body)));
    expect(results.map((r) => r.status)).to.deep.equal(bodies.map(() => 200));
    const lines = (await readFile(fileURLToPath(url), 'utf8')).trimEnd().split('\n');
    expect(lines).to.deep.equal(bodies);
  });

  it('refuses an append, as a refused target, once a symbolic link out of the folder took its place', async () => {
    const target = files();
    const url = urlOf(await target.place('moved/a.jsonl'));
    await symlink(outside, join(folder, 'moved'));
    const result = await target.append(url, '{}');
    expect(result.refusedTarget).to.equal(true);
    expect(result.error).to.match(/symbolic link/);
    expect(await readdir(outside)).to.deep.equal([]);
  });

  it('refuses an append to a file outside the folder, as a refused target', async () => {
    const result = await files().append(pathToFileURL(join(outside, 'a.jsonl')).href, '{}');
    expect(result.refusedTarget).to.equal(true);
    expect(result.error).to.match(/outside the file_append folder/);
  });

  it('reports a failed write as an error worth retrying, not a refused target', async () => {
    const target = files();
    const url = urlOf(await target.place('blocked/a.jsonl'));
    // A plain file where a folder should be: the folder cannot be made.
    await writeFile(join(folder, 'blocked'), '');
    const result = await target.append(url, '{}');
    expect(result.status).to.equal(null);
    expect(result.refusedTarget).to.equal(false);
    expect(result.error).to.match(/cannot append to .*: E(EXIST|NOTDIR)/);
  });
});
