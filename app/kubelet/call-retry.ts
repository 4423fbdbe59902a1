/**
 * Retries a kubelet call while the kubelet says "wait" (initializing, rate limited), with a capped,
 * jittered backoff (each wait 80-100 % of its bound), telling the caller before each wait so the user
 * sees why nothing happens yet.
 */
import { backoffDelayMs, type BackoffPolicy } from '../ssh/reconnect-backoff';
import { KubeletError } from './kubelet-error';

/** Initializing kubelets take seconds; rate limits clear within a second. */
export const CALL_RETRY_BACKOFF: BackoffPolicy = { initialMs: 200, factor: 2, maxMs: 5_000, jitter: 0.2 };

export interface RetryOptions {
  /** Give up after this long in total (default 60 s): the last error is thrown, with a next step that no longer promises a retry. */
  maxWaitMs?: number;
  backoff?: BackoffPolicy;
  /** Called before each wait. */
  onRetry?: (err: KubeletError, delayMs: number, attempt: number) => void;
  /** Stops the waiting (the client was closed): the wait ends at once with the signal's reason. */
  signal?: AbortSignal;
}

const WAIT_CODES = new Set(['INITIALIZING', 'RATE_LIMITED']);

/** What to do once waiting did not help: the error's own next step says "Nodescope retries", which is over. */
const GAVE_UP_NEXT_STEP: Record<string, string> = {
  INITIALIZING:
    'The kubelet should be ready within seconds: check its state and log on the node (systemctl status kubelet; journalctl -u kubelet), then run the command again.',
  RATE_LIMITED:
    'Something else keeps the Pods API busy (ListPods and GetPod share 100 requests/s per kubelet): find what calls it so often, then run the command again.',
};

function gaveUp(err: KubeletError, waitedMs: number): KubeletError {
  return new KubeletError(err.code, `${err.message} (Nodescope waited ${(waitedMs / 1000).toFixed(1)} s for it and stopped)`, GAVE_UP_NEXT_STEP[err.code] ?? err.nextStep, {
    cause: err,
    retryable: err.retryable,
  });
}

/**
 * Sleeps `ms`, or less when `signal` aborts (or did during the call); the abort listener goes with the
 * wait, so many waits add none up.
 */
function wait(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise<void>((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}

export async function retryWhileBusy<T>(call: () => Promise<T>, options: RetryOptions = {}): Promise<T> {
  const start = performance.now();
  const deadline = start + (options.maxWaitMs ?? 60_000);
  const { signal } = options;
  for (let attempt = 1; ; attempt++) {
    signal?.throwIfAborted();
    try {
      return await call();
    } catch (err) {
      if (!(err instanceof KubeletError) || !WAIT_CODES.has(err.code)) throw err;
      const delay = backoffDelayMs(attempt, options.backoff ?? CALL_RETRY_BACKOFF);
      if (performance.now() + delay > deadline) throw gaveUp(err, performance.now() - start);
      options.onRetry?.(err, delay, attempt);
      await wait(delay, signal);
    }
  }
}
