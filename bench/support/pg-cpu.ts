// CPU seconds of processes from /proc (Linux): the bench's worker children and the PostgreSQL server's
// processes, to say where a drain's time goes. Reads only; 0 where /proc is not there.
import { readFileSync, readdirSync } from 'node:fs';

const TICKS_PER_SECOND = 100;

/** User + system CPU seconds of one process; 0 once it is gone. */
export function processCpuSeconds(pid: number | undefined): number {
  if (pid === undefined) return 0;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces) start after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

/** CPU seconds of every process named `postgres` (the server and its backends) alive now. */
export function postgresCpuSeconds(): number {
  let total = 0;
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return 0;
  }
  for (const pid of pids) {
    try {
      if (readFileSync(`/proc/${pid}/comm`, 'utf8').trim() !== 'postgres') continue;
      total += processCpuSeconds(Number(pid));
    } catch {
      // gone meanwhile
    }
  }
  return total;
}
