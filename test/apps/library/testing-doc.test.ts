import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { firstTypeScriptBlock } from '../../support/markdown.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

describe('docs/testing-harness.md', function () {
  this.timeout(60_000);

  it('runs its example: the index agrees with the reference on generated blocks and hooks', async () => {
    const code = await firstTypeScriptBlock(join(ROOT, 'docs/testing-harness.md'));
    expect(code).to.include("from 'stackhooks/testing'");
    // Inside the project so that `import 'stackhooks/testing'` resolves to this package (self-reference).
    const dir = join(ROOT, '.tmp');
    await mkdir(dir, { recursive: true });
    const file = join(dir, `testing-harness-example-${process.pid}.ts`);
    await writeFile(file, code);
    try {
      const child = spawn(process.execPath, ['--import', 'tsx', file], {
        cwd: ROOT,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      child.stdout.on('data', (c: Buffer) => (out += c.toString()));
      child.stderr.on('data', (c: Buffer) => (out += c.toString()));
      const [exitCode] = (await once(child, 'exit')) as [number];
      expect(exitCode, out).to.equal(0);
      const result = JSON.parse(out.trim().split('\n').pop()!) as { runs: number; matchedHooks: number };
      expect(result.runs).to.equal(200);
      // The pool makes matches common: a property over hooks that never match would prove nothing.
      expect(result.matchedHooks).to.be.above(20);
    } finally {
      await rm(file, { force: true });
    }
  });
});
