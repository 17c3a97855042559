import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { firstTypeScriptBlock } from '../../support/markdown.js';
import { makeTempDir } from '../../support/temp-dir.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

describe('docs/embedding.md', function () {
  this.timeout(60_000);

  it('runs its example: the API mounted in another Koa app registers a hook by the package name', async () => {
    const code = await firstTypeScriptBlock(join(ROOT, 'docs/embedding.md'));
    // Inside the project so that `import 'stackhooks'` resolves to this package (self-reference).
    const dir = join(ROOT, '.tmp');
    await mkdir(dir, { recursive: true });
    const file = join(dir, `embedding-example-${process.pid}.ts`);
    const dataDir = await makeTempDir();
    await writeFile(file, code);
    try {
      const child = spawn(process.execPath, ['--import', 'tsx', file], {
        cwd: ROOT,
        env: { ...process.env, EXAMPLE_DATA_DIR: dataDir },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      child.stdout.on('data', (c: Buffer) => (out += c.toString()));
      child.stderr.on('data', (c: Buffer) => (out += c.toString()));
      const [code] = (await once(child, 'exit')) as [number];
      expect(code, out).to.equal(0);
      const result = JSON.parse(out.trim().split('\n').pop()!) as {
        status: number;
        uuid: string;
        total: number;
      };
      expect(result.status).to.equal(200);
      expect(result.uuid).to.match(/^[0-9a-f-]{36}$/);
      expect(result.total).to.equal(1);
    } finally {
      await rm(file, { force: true });
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
