import { join } from 'node:path';

/**
 * The embedded stores' folders inside the data folder, in one place: the service and the
 * archive-only import must open the same archive for the same `dataDir`.
 */
export function dataFolders(dataDir: string): {
  archive: string;
  contracts: string;
  events: string;
  outbox: string;
} {
  const archive = join(dataDir, 'archive');
  return {
    archive,
    contracts: join(archive, 'contracts'),
    events: join(dataDir, 'events'),
    outbox: join(dataDir, 'outbox'),
  };
}
