import type { CallContext, WorkloadMatrixView } from '../contract';
import type { WorkloadMatrix } from '../fleet/workload-matrix';

/** At most one matrix this often per watch: a hundred busy nodes change every frame. */
export const MATRIX_PACE_MS = 2000;

/** Resolves when `register` calls back, rejects with the signal's reason once it aborts. */
function until(signal: AbortSignal, register: (wake: () => void) => () => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const done = (settle: () => void) => () => {
      unregister();
      signal.removeEventListener('abort', aborted);
      settle();
    };
    const aborted = done(() => reject(signal.reason));
    const unregister = register(done(resolve));
    if (signal.aborted) aborted();
    else signal.addEventListener('abort', aborted, { once: true });
  });
}

/**
 * `fleet.watchMatrix`, a subscription (app/contract/jobs.ts): the matrix of the sources now, then again
 * whenever one of them changed, at most every `paceMs`; nothing while none changes, so the view neither
 * polls nor draws an unchanged matrix again. Over when its window cancels it or goes.
 */
export async function watchMatrix(
  build: (signal: AbortSignal) => Promise<WorkloadMatrix>,
  changes: (changed: () => void) => () => void,
  call: CallContext<WorkloadMatrixView>,
  paceMs: number,
): Promise<never> {
  let changed = true;
  let wake: (() => void) | null = null;
  const stop = changes(() => {
    changed = true;
    wake?.();
  });
  try {
    for (;;) {
      if (!changed) {
        await until(call.signal, (resolve) => {
          wake = resolve;
          return () => (wake = null);
        });
      }
      changed = false;
      call.progress(await build(call.signal));
      await until(call.signal, (resolve) => {
        const timer = setTimeout(resolve, paceMs);
        return () => clearTimeout(timer);
      });
    }
  } finally {
    stop();
  }
}
