import { describe, expect, it } from 'vitest';
import { runInSlices } from './time-slices';

/** Steps that record how far they got, each yielding its count. */
function counting(n: number, log: string[]) {
  return (function* () {
    try {
      for (let i = 1; i <= n; i++) {
        log.push(`step ${i}`);
        yield i;
      }
      return 'done';
    } finally {
      log.push('closed');
    }
  })();
}

describe('runInSlices', () => {
  it('lets a timer, I/O or another request in between slices, and ends with the work\'s result', async () => {
    const log: string[] = [];
    setTimeout(() => log.push('other work'), 0);
    const progress: number[] = [];
    const result = await runInSlices(counting(5, log), { budgetMs: 0, onPause: (n) => progress.push(n) });
    expect(result).toBe('done');
    // The other work ran while the steps were under way, not after them.
    expect(log.indexOf('other work')).toBeGreaterThan(0);
    expect(log.indexOf('other work')).toBeLessThan(log.indexOf('step 5'));
    expect(progress).toEqual([1, 2, 3, 4, 5]);
  });

  it('stops at its next turn once aborted, with the reason, and takes no further step', async () => {
    const log: string[] = [];
    const controller = new AbortController();
    const run = runInSlices(counting(100, log), { budgetMs: 0, signal: controller.signal, onPause: (n) => n === 3 && controller.abort(new Error('superseded')) });
    await expect(run).rejects.toThrow('superseded');
    expect(log).toEqual(['step 1', 'step 2', 'step 3', 'closed']);
  });
});
