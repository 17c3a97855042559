import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { makeTempDir } from '../support/temp-dir.js';

const run = promisify(execFile);

describe('scripts/boot-contracts.ts', function () {
  // The simnet loads a WebAssembly build of Clarinet: a few seconds, more on a busy machine.
  this.timeout(120_000);

  it('writes exactly the boot-contract ABIs the package ships', async () => {
    const dir = await makeTempDir();
    try {
      const out = join(dir, 'boot-contracts.json');
      await run(process.execPath, ['--import', 'tsx', 'scripts/boot-contracts.ts', '--out', out]);
      const [produced, shipped] = await Promise.all([
        readFile(out, 'utf8'),
        readFile('core/contracts/boot-contracts.json', 'utf8'),
      ]);
      expect(produced.length).to.be.above(100_000);
      // Not deep.equal on the parsed text: a diff of 380 KB would drown the report.
      expect(
        produced === shipped,
        'core/contracts/boot-contracts.json is stale: run npm run boot-contracts',
      ).to.equal(true);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
