/**
 * Tells a process that a hook changed in another process (an API process registered or disabled
 * one; a worker interrupted one), so the matcher's in-memory index stays fresh. The embedded
 * default runs in one process and needs none.
 */
export interface HookChangeFeed {
  /**
   * Call `listener` with the uuid of every hook changed from now on; resolves to a stop function.
   * `onMissed` is called when changes may have gone unheard (the feed lost its connection and is
   * listening again): the caller reloads what it keeps of the hooks.
   */
  watch(listener: (uuid: string) => void, onMissed?: () => void): Promise<() => Promise<void>>;
}

export const HOOK_CHANGE_FEED = Symbol.for('stackhooks.HookChangeFeed');
