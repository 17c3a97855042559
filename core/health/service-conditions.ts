/**
 * A reason the service cannot do part of its work right now (a full disk, an unreachable database,
 * no ingest lock): named, with when it began, so the status route, readiness and metrics say why.
 */
export type ServiceCondition = {
  /** Stable name, snake_case: `storage_full`, `database_unreachable`, `ingest_inactive`. */
  name: string;
  /** What an operator reads: the cause and, where known, what to do. */
  reason: string;
  /** When it was first raised (ms since the epoch). */
  since: number;
};

/** The conditions currently raised in this process; raising one again keeps its first `since`. */
export class ServiceConditions {
  private readonly raised = new Map<string, ServiceCondition>();
  private readonly listeners: ((condition: ServiceCondition, raised: boolean) => void)[] = [];

  /** Raise a condition (or update its reason); returns true when it was not raised before. */
  raise(name: string, reason: string, now: number): boolean {
    const current = this.raised.get(name);
    if (current) {
      current.reason = reason;
      return false;
    }
    const condition = { name, reason, since: now };
    this.raised.set(name, condition);
    for (const listener of this.listeners) listener(condition, true);
    return true;
  }

  /** Clear a condition; returns true when it was raised. */
  clear(name: string): boolean {
    const current = this.raised.get(name);
    if (!current) return false;
    this.raised.delete(name);
    for (const listener of this.listeners) listener(current, false);
    return true;
  }

  /** Whether a condition is raised. */
  has(name: string): boolean {
    return this.raised.has(name);
  }

  /** Every raised condition, oldest first. */
  list(): ServiceCondition[] {
    return [...this.raised.values()].map((c) => ({ ...c }));
  }

  /** Be told of every raise and clear (for logs and metrics). */
  onChange(listener: (condition: ServiceCondition, raised: boolean) => void): void {
    this.listeners.push(listener);
  }
}

export const SERVICE_CONDITIONS = Symbol.for('stackhooks.ServiceConditions');
