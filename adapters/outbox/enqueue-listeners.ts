/** Who wants to hear that payloads were queued (the dispatcher, to start deliveries at once). */
export class EnqueueListeners {
  private readonly listeners = new Set<() => void>();

  /** Add a listener; returns a function that removes it. */
  add(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Tell every listener. */
  notify(): void {
    for (const listener of this.listeners) {
      // The payloads are stored by now: a listener's error must not turn into a failed enqueue.
      try {
        listener();
      } catch (err) {
        process.emitWarning(err instanceof Error ? err : new Error(String(err)));
      }
    }
  }
}
