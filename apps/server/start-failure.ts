import { isAbsolute, relative, resolve } from 'node:path';
import { DatabaseStartError } from '../../adapters/store-postgres/index.js';
import { ConfigError, type ServerConfig } from './config.js';
import { DataDirInUseError } from './data-dir-lock.js';
import { StoreNetworkError } from './store-network.js';

type SystemError = NodeJS.ErrnoException & { address?: string; port?: number };

/** File system codes that say the data folder cannot be written, and what to tell the operator. */
const FOLDER_PROBLEMS: Record<string, string> = {
  EACCES: 'this user may not write it',
  EPERM: 'this user may not write it',
  EROFS: 'it is on a read-only file system',
  // What a recursive mkdir reports when a missing folder on the path cannot be made (read-only, say).
  ENOENT: 'a folder on its path is missing and cannot be created',
  ENOTDIR: 'a part of its path is a file, not a folder',
  EEXIST: 'a file of that name is in the way',
  ENOSPC: 'its disk is full',
  EDQUOT: 'its disk quota is used up',
};

/**
 * The one line a start that failed prints (without `--verbose`, no stack): what failed, the setting
 * that decides it and what to do. `config` is what was read, if reading it succeeded.
 */
export function startFailureLine(
  err: unknown,
  config?: Pick<ServerConfig, 'dataDir' | 'port' | 'observerPort' | 'databaseUrl'>,
): string {
  if (err instanceof ConfigError || err instanceof DataDirInUseError || err instanceof StoreNetworkError) {
    return `stackhooks: ${err.message}`;
  }
  if (err instanceof DatabaseStartError) {
    const hint = err.waited
      ? ' (STACKHOOKS_DATABASE_WAIT sets how long to wait)'
      : ' (check STACKHOOKS_DATABASE_URL)';
    return `stackhooks: ${err.message}${hint}`;
  }
  const failure = err as SystemError;
  const message = err instanceof Error ? err.message : String(err);
  if (failure?.code === 'EADDRINUSE' && config) {
    const setting =
      failure.port === config.observerPort ? 'STACKHOOKS_OBSERVER_PORT' : 'STACKHOOKS_PORT (--port)';
    return `stackhooks: port ${failure.port} is already in use; stop what listens there or set ${setting} to another port`;
  }
  const problem = failure?.code === undefined ? undefined : FOLDER_PROBLEMS[failure.code];
  if (problem && config && !config.databaseUrl && failure.path && onPath(failure.path, config.dataDir)) {
    return (
      `stackhooks: cannot use the data folder ${config.dataDir}: ${problem} (${failure.code} on ${failure.path}); ` +
      'set STACKHOOKS_DATA_DIR (--data-dir) to a folder this user can write, or fix that one'
    );
  }
  return `stackhooks: could not start: ${message} (--verbose shows where)`;
}

// Whether `path` is the folder, inside it, or one of the folders above it (a mkdir of a missing one).
function onPath(path: string, folder: string): boolean {
  const inside = (a: string, b: string) => {
    const rel = relative(resolve(b), resolve(a));
    return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
  };
  return inside(path, folder) || inside(folder, path);
}
