/**
 * Retries a kubelet call while the kubelet says "wait" (initializing, rate limited), with a capped,
 * jittered backoff, telling the caller before each wait so the user sees why nothing happens yet.
 */
import { backoffDelayMs, type BackoffPolicy } from '../ssh/reconnect-backoff';
import { KubeletError } from './kubelet-error';

/** Initializing kubelets take seconds; rate limits clear within a second. */
export const CALL_RETRY_BACKOFF: BackoffPolicy = { initialMs: 200, factor: 2, maxMs: 5_000, jitter: 0.2 };

export interface RetryOptions {
  /** Give up after this long in total (default 60 s); the last error is thrown. */
  maxWaitMs?: number;
  backoff?: BackoffPolicy;
  /** Called before each wait. */
  onRetry?: (err: KubeletError, delayMs: number, attempt: number) => void;
  /** Stops the waiting (the client was closed): the wait ends at once with the signal's reason. */
  signal?: AbortSignal;
}

const WAIT_CODES = new Set(['INITIALIZING', 'RATE_LIMITED']);

export async function retryWhileBusy<T>(call: () => Promise<T>, options: RetryOptions = {}): Promise<T> {
  const deadline = performance.now() + (options.maxWaitMs ?? 60_000);
  const { signal } = options;
  for (let attempt = 1; ; attempt++) {
    signal?.throwIfAborted();
    try {
      return await call();
    } catch (err) {
      if (!(err instanceof KubeletError) || !WAIT_CODES.has(err.code)) throw err;
      const delay = backoffDelayMs(attempt, options.backoff ?? CALL_RETRY_BACKOFF);
      if (performance.now() + delay > deadline) throw err;
      options.onRetry?.(err, delay, attempt);
      await new Promise<void>((r) => {
        const timer = setTimeout(r, delay);
        signal?.addEventListener('abort', () => (clearTimeout(timer), r()), { once: true });
      });
    }
  }
}
