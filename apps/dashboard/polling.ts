/** Something done again and again until stopped. */
export type Polling = { readonly stopped: boolean; stop(): void };

/**
 * Run `step` now and then `everyMs` after each run ends (never two at once, so a slow server is
 * not asked faster than it answers), until stopped.
 */
export function poll(step: () => Promise<void>, everyMs: number): Polling {
  let timer: number | undefined;
  let stopped = false;
  const run = async () => {
    await step();
    if (!stopped) timer = window.setTimeout(run, everyMs);
  };
  void run();
  return {
    get stopped() {
      return stopped;
    },
    stop() {
      stopped = true;
      window.clearTimeout(timer);
    },
  };
}
