/** A per-key token bucket: `perMinute` requests a minute, with bursts up to `perMinute`. */
export class RequestRateLimit {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  private readonly refillPerMs: number;

  constructor(
    private readonly perMinute: number,
    private readonly now: () => number = Date.now,
  ) {
    this.refillPerMs = perMinute / 60_000;
  }

  /** Take one token for `key`; returns 0 when allowed, else the seconds to wait before retrying. */
  take(key: string): number {
    const now = this.now();
    const bucket = this.buckets.get(key) ?? { tokens: this.perMinute, at: now };
    const tokens = Math.min(this.perMinute, bucket.tokens + (now - bucket.at) * this.refillPerMs);
    if (tokens >= 1) {
      this.buckets.set(key, { tokens: tokens - 1, at: now });
      if (this.buckets.size > 10_000) this.forgetFullBuckets(now);
      return 0;
    }
    this.buckets.set(key, { tokens, at: now });
    return Math.max(1, Math.ceil((1 - tokens) / this.refillPerMs / 1000));
  }

  // A full bucket says nothing a fresh one would not, so idle keys cost no memory.
  private forgetFullBuckets(now: number): void {
    for (const [key, bucket] of this.buckets) {
      if (bucket.tokens + (now - bucket.at) * this.refillPerMs >= this.perMinute) this.buckets.delete(key);
    }
  }
}
