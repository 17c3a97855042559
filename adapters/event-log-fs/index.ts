export { FsEventLog, type FsEventLogOptions } from './fs-event-log.js';

import { FsEventLog, type FsEventLogOptions } from './fs-event-log.js';

/** Open the raw event log in `dir` (created when missing). */
export function openFsEventLog(dir: string, options?: FsEventLogOptions): Promise<FsEventLog> {
  return FsEventLog.open(dir, options);
}
