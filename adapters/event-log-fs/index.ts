export { FsEventLog } from './fs-event-log.js';

import { FsEventLog } from './fs-event-log.js';

/** Open the raw event log in `dir` (created when missing). */
export function openFsEventLog(dir: string): Promise<FsEventLog> {
  return FsEventLog.open(dir);
}
