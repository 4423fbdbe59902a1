/**
 * Helpers shared by the benchmarks. Throughput is compared by interleaving short slices of the candidate
 * and the baseline and taking the median ratio, so load from other processes on a shared 2-core machine
 * hits both sides alike.
 */

export interface Comparison {
  /** Median items per second of each side, and the median of per-slice-pair ratios (candidate / baseline). */
  candidate: number;
  baseline: number;
  ratio: number;
}

function slice(fn: () => void, items: number, ms: number): number {
  let n = 0;
  const start = performance.now();
  let elapsed = 0;
  while (elapsed < ms) {
    fn();
    n++;
    elapsed = performance.now() - start;
  }
  return (n * items * 1000) / elapsed;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** `candidate` and `baseline` each process `items` things per call. */
export function compareRates(candidate: () => void, baseline: () => void, items: number, { sliceMs = 40, pairs = 25 } = {}): Comparison {
  for (let i = 0; i < 5; i++) {
    candidate();
    baseline();
  }
  const c: number[] = [];
  const b: number[] = [];
  const ratios: number[] = [];
  for (let i = 0; i < pairs; i++) {
    const rc = slice(candidate, items, sliceMs);
    const rb = slice(baseline, items, sliceMs);
    c.push(rc);
    b.push(rb);
    ratios.push(rc / rb);
  }
  return { candidate: median(c), baseline: median(b), ratio: median(ratios) };
}

/** Median duration of an async operation, in ms. */
export async function measureAsync(fn: () => Promise<void>, { runs = 15, warmup = 3 } = {}): Promise<number> {
  for (let i = 0; i < warmup; i++) await fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await fn();
    times.push(performance.now() - t);
  }
  return median(times);
}

export function fmt(n: number): string {
  return n >= 100 ? Math.round(n).toLocaleString('en-US') : n.toFixed(2);
}
