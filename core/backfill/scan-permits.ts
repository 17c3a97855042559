/** A backfill asking for a turn to scan. */
export type ScanTurnRequest = { id: string; owner: string; created_at: number };

type Waiter = ScanTurnRequest & { grant: () => void };

/**
 * At most `limit` backfill steps read the archive at once. A scan takes a permit for one step and
 * gives it back after, so waiting scans take turns. When a permit frees, the waiting scan whose
 * owner holds the fewest permits goes first (one owner's many backfills cannot starve another's
 * one), then the oldest backfill. A scan waiting on delivery holds no permit.
 */
export class ScanPermits {
  private readonly held = new Map<string, number>();
  private inUse = 0;
  private waiters: Waiter[] = [];

  constructor(private readonly limit: number) {}

  /** Resolves once the backfill holds a permit; give it back with `release`. */
  acquire(request: ScanTurnRequest): Promise<void> {
    return new Promise((grant) => {
      this.waiters.push({ ...request, grant });
      this.grantFree();
    });
  }

  /** Give back a permit of `owner`. */
  release(owner: string): void {
    this.inUse--;
    const left = (this.held.get(owner) ?? 1) - 1;
    if (left === 0) this.held.delete(owner);
    else this.held.set(owner, left);
    this.grantFree();
  }

  /** Permits held now. */
  get busy(): number {
    return this.inUse;
  }

  private grantFree(): void {
    while (this.inUse < this.limit && this.waiters.length > 0) {
      const next = this.waiters.reduce((best, w) => (this.before(w, best) ? w : best));
      this.waiters = this.waiters.filter((w) => w !== next);
      this.inUse++;
      this.held.set(next.owner, (this.held.get(next.owner) ?? 0) + 1);
      next.grant();
    }
  }

  private before(a: Waiter, b: Waiter): boolean {
    const loadA = this.held.get(a.owner) ?? 0;
    const loadB = this.held.get(b.owner) ?? 0;
    if (loadA !== loadB) return loadA < loadB;
    if (a.created_at !== b.created_at) return a.created_at < b.created_at;
    return a.id < b.id;
  }
}
