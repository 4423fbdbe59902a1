/**
 * The kubelet's request limiter (golang.org/x/time/rate): `qps` tokens per second refill a bucket of
 * `burst`; a request that finds it empty is rejected, not queued.
 */
export class TokenBucket {
  private tokens: number;
  private last: number;

  constructor(
    private readonly qps: number,
    private readonly burst: number,
    private readonly clock: () => number = () => performance.now(),
  ) {
    if (!(qps > 0) || !(burst >= 1)) throw new RangeError(`rate limit needs qps > 0 and burst >= 1, got qps ${qps}, burst ${burst}`);
    this.tokens = burst;
    this.last = clock();
  }

  /** Takes a token if one is available. */
  take(): boolean {
    const now = this.clock();
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) * this.qps) / 1000);
    this.last = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}
