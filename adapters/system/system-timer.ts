import type { Timer, Wait } from '../../core/ports/timer.js';

/** Waits on Node's timers; a wait never keeps the process alive on its own. */
export class SystemTimer implements Timer {
  /** Start a wait of `ms` milliseconds. */
  wait(ms: number): Wait {
    let timer: NodeJS.Timeout | undefined;
    const elapsed = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, ms);
      timer.unref();
    });
    return { elapsed, cancel: () => clearTimeout(timer) };
  }
}
