import { constants } from 'node:fs';
import { lstat, mkdir, open, realpath } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { FilePlacement, PayloadFiles } from '../../core/ports/payload-files.js';
import { sendResult, type SendResult } from '../../core/ports/webhook-sender.js';

/** Where `file_append` may write, and what to say when no folder is named. */
export type FolderPayloadFilesOptions = {
  /** The folder every appended file must be inside; undefined turns `file_append` off. */
  folder: string | undefined;
  /** Why `file_append` is refused when no folder is named (names the setting that turns it on). */
  offReason: string;
};

/**
 * `file_append` confined to one folder. A path is placed inside it at registration (relative paths
 * are taken from the folder, as 1.x took them from its working directory) and refused when it
 * leaves it by `..`, by an absolute path elsewhere, or through a symbolic link; the append checks
 * again, since links can change after registration. Appends to one file run one at a time, so two
 * predicates writing one file never interleave their lines, and each is synced before it counts.
 */
export class FolderPayloadFiles implements PayloadFiles {
  private readonly queues = new Map<string, Promise<unknown>>();

  constructor(private readonly options: FolderPayloadFilesOptions) {}

  /** The file a predicate's path names inside the folder, as a `file:` URL of its real path, or the refusal. */
  async place(path: string): Promise<FilePlacement> {
    const { folder } = this.options;
    if (folder === undefined) return { refusal: this.options.offReason };
    if (path.includes('\0')) return { refusal: 'must not contain a NUL character' };
    let root: string;
    try {
      // The operator named it: made when missing, like the data folder.
      await mkdir(folder, { recursive: true });
      root = await realpath(folder);
    } catch (err) {
      return {
        refusal: `cannot be written: the file_append folder ${folder} cannot be made or read (${codeOf(err)})`,
      };
    }
    // The path as written (`..` resolved) must be inside the folder, named by its given or its real path.
    const written = resolve(folder, path);
    const given = resolve(folder);
    if (!inside(given, written) && !inside(root, written))
      return { refusal: `leaves the file_append folder ${folder}` };
    const real = await realTarget(inside(given, written) ? join(root, relative(given, written)) : written);
    if (typeof real !== 'string') return real;
    if (!inside(root, real) || real === root)
      return { refusal: `leaves the file_append folder ${folder} through a symbolic link` };
    return { url: pathToFileURL(real).href };
  }

  /** Append one line to the file, synced to disk; the folder is checked again first. */
  append(url: string, body: string): Promise<SendResult> {
    const file = fileURLToPath(url);
    const before = this.queues.get(file) ?? Promise.resolve();
    const run = before.then(() => this.appendNow(file, body));
    const tail = run.finally(() => {
      if (this.queues.get(file) === tail) this.queues.delete(file);
    });
    this.queues.set(file, tail);
    return run;
  }

  private async appendNow(file: string, body: string): Promise<SendResult> {
    const started = performance.now();
    const report = (outcome: Partial<SendResult>): SendResult =>
      sendResult(outcome, Math.round(performance.now() - started));
    const { folder } = this.options;
    if (folder === undefined) return report({ error: this.options.offReason, refusedTarget: true });
    try {
      const root = await realpath(folder);
      if (!inside(root, file) || file === root)
        return report({
          error: `refused target ${file}: outside the file_append folder ${folder}`,
          refusedTarget: true,
        });
      const parent = dirname(file);
      await mkdir(parent, { recursive: true });
      if ((await realpath(parent)) !== parent)
        return report({ error: `refused target ${file}: a symbolic link on its path`, refusedTarget: true });
      await appendLine(file, `${body}\n`);
      return report({ status: 200 });
    } catch (err) {
      const code = codeOf(err);
      if (code === 'ELOOP')
        return report({ error: `refused target ${file}: it is a symbolic link`, refusedTarget: true });
      return report({ error: `cannot append to ${file}: ${code}` });
    }
  }
}

/** `file_append` inside `folder`, or off (every placement refused with `offReason`) when it is undefined. */
export function createFolderPayloadFiles(options: FolderPayloadFilesOptions): FolderPayloadFiles {
  return new FolderPayloadFiles(options);
}

// The whole line in writes at the end of the file (never following a link), then synced; a new
// file's folder entry is synced too, so a delivered line survives a power cut.
async function appendLine(file: string, line: string): Promise<void> {
  const flags = constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW;
  const handle = await open(file, flags, 0o644);
  let created: boolean;
  try {
    const bytes = Buffer.from(line);
    created = (await handle.stat()).size === 0;
    let written = 0;
    while (written < bytes.length) {
      const { bytesWritten } = await handle.write(bytes, written, bytes.length - written);
      written += bytesWritten;
    }
    await handle.datasync();
  } finally {
    await handle.close();
  }
  if (created) await syncFolder(dirname(file));
}

async function syncFolder(folder: string): Promise<void> {
  const handle = await open(folder, constants.O_RDONLY);
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

// The real path of a file that may not exist yet: its deepest existing ancestor resolved, the rest
// appended. An existing file must be a regular file, not a link.
async function realTarget(path: string): Promise<string | { refusal: string }> {
  const stat = await lstat(path).catch(() => undefined);
  if (stat?.isSymbolicLink()) return { refusal: 'names a symbolic link' };
  if (stat && !stat.isFile()) return { refusal: 'names something that is not a file' };
  let existing = dirname(path);
  const rest = [basename(path)];
  for (;;) {
    try {
      return join(await realpath(existing), ...rest);
    } catch (err) {
      if (codeOf(err) !== 'ENOENT' || dirname(existing) === existing)
        return { refusal: `cannot be written (${codeOf(err)})` };
      rest.unshift(basename(existing));
      existing = dirname(existing);
    }
  }
}

function inside(folder: string, path: string): boolean {
  const rel = relative(folder, path);
  return rel.split(sep)[0] !== '..' && !isAbsolute(rel);
}

function codeOf(err: unknown): string {
  return (err as NodeJS.ErrnoException).code ?? String(err);
}
