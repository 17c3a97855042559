/**
 * Live hooks with an evaluation limit, by the live stream position at which they reach it, so a live
 * step finds the hooks it expires by looking at the positions it covers, never at every hook.
 */
export class ExpirySchedule {
  readonly #atPosition = new Map<number, Set<string>>();
  readonly #positionOf = new Map<string, number>();

  /** Schedule a hook to expire at stream position `position`, replacing its earlier place. */
  set(uuid: string, position: number): void {
    this.delete(uuid);
    this.#positionOf.set(uuid, position);
    let due = this.#atPosition.get(position);
    if (!due) {
      due = new Set();
      this.#atPosition.set(position, due);
    }
    due.add(uuid);
  }

  /** Take a hook off the schedule; nothing happens for an unscheduled one. */
  delete(uuid: string): void {
    const position = this.#positionOf.get(uuid);
    if (position === undefined) return;
    this.#positionOf.delete(uuid);
    const due = this.#atPosition.get(position)!;
    due.delete(uuid);
    if (due.size === 0) this.#atPosition.delete(position);
  }

  /** Whether a hook is on the schedule. */
  has(uuid: string): boolean {
    return this.#positionOf.has(uuid);
  }

  /** The hooks scheduled at positions after `from` up to `to`; they stay scheduled until set or deleted. */
  due(from: number, to: number): string[] {
    const out: string[] = [];
    for (let position = from + 1; position <= to; position++) {
      const due = this.#atPosition.get(position);
      if (due) out.push(...due);
    }
    return out;
  }
}
