import { rm } from 'node:fs/promises';
import { PayloadSegments } from '../../adapters/outbox/payload-segments.js';
import { makeTempDir } from './temp-dir.js';

/**
 * Give each test payload segments in a fresh folder (1 MiB segments, handed to `use`); close them
 * and remove the folder after.
 */
export function segmentsPerTest(use: (segments: PayloadSegments) => void): void {
  let dir: string;
  let segments: PayloadSegments;
  beforeEach(async () => {
    dir = await makeTempDir('stackhooks-sent-');
    segments = await PayloadSegments.open(dir, 1 << 20);
    use(segments);
  });
  afterEach(async () => {
    await segments.close();
    await rm(dir, { recursive: true, force: true });
  });
}
