import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The pages the package ships and a user reads: the README, the changelog and docs/. */
async function userPages(): Promise<string[]> {
  const docs = (await readdir(join(ROOT, 'docs'))).filter((name) => name.endsWith('.md'));
  return ['README.md', 'CHANGELOG.md', ...docs.map((name) => `docs/${name}`)];
}

describe('the user documentation', () => {
  it('cites no issue and no private contract document', async () => {
    const found: string[] = [];
    for (const page of await userPages()) {
      const lines = (await readFile(join(ROOT, page), 'utf8')).split('\n');
      lines.forEach((line, i) => {
        if (/compat\.md|\bissues? #?\d+|\(issue\b|issues' merges/i.test(line))
          found.push(`${page}:${i + 1}: ${line}`);
      });
    }
    expect(found).to.deep.equal([]);
  });
});
