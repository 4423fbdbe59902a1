import { describe, expect, it } from 'vitest';
import { logLoopTurns } from '../testing/loop-turns';
import { afterArrivalWork, runInSlices } from './time-slices';

/** Steps that record how far they got, each yielding its count; each takes `ms` of work. */
function counting(n: number, log: string[], ms = 0) {
  return (function* () {
    try {
      for (let i = 1; i <= n; i++) {
        log.push(`step ${i}`);
        for (const until = performance.now() + ms; performance.now() < until; );
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
    // Steps of 2 ms: the timer (1 ms at least) is due by the second slice.
    const result = await runInSlices(counting(5, log, 2), { budgetMs: 0, onPause: (n) => progress.push(n) });
    expect(result).toBe('done');
    // The other work ran while the steps were under way, not after them.
    expect(log.indexOf('other work')).toBeGreaterThanOrEqual(0);
    expect(log.indexOf('other work')).toBeLessThan(log.indexOf('step 5'));
    expect(progress).toEqual([1, 2, 3, 4, 5]);
  });

  it('with several runs at once, still gives the event loop a turn between any two slices, taking turns', async () => {
    const log: string[] = [];
    const stop = logLoopTurns(log);
    const a: string[] = [];
    const b: string[] = [];
    await Promise.all([runInSlices(counting(4, a), { budgetMs: 0, onPause: () => log.push('a') }), runInSlices(counting(4, b), { budgetMs: 0, onPause: () => log.push('b') })]);
    stop();
    const slices = log.filter((e) => e !== 'turn');
    expect(slices).toEqual(['a', 'b', 'a', 'b', 'a', 'b', 'a', 'b']);
    // No two slices, of either run, without a turn of the loop between them.
    for (let i = 1; i < log.length; i++) if (log[i] !== 'turn') expect(log[i - 1], log.join(' ')).toBe('turn');
  });

  it('stops at its next turn once aborted, with the reason, and takes no further step', async () => {
    const log: string[] = [];
    const controller = new AbortController();
    const run = runInSlices(counting(100, log), { budgetMs: 0, signal: controller.signal, onPause: (n) => n === 3 && controller.abort(new Error('superseded')) });
    await expect(run).rejects.toThrow('superseded');
    expect(log).toEqual(['step 1', 'step 2', 'step 3', 'closed']);
  });
});

describe('afterArrivalWork', () => {
  it('lets readers go on while the turn has budget left, then has each wait for a turn of its own, and starts afresh after it', async () => {
    const log: string[] = [];
    const stop = logLoopTurns(log);
    await new Promise((r) => setImmediate(r));
    // Two readers whose work overran the budget in this turn (a budget of -1 ms: any work overruns it).
    expect(afterArrivalWork(-1)).toBeNull();
    const waits = [afterArrivalWork(-1), afterArrivalWork(-1)];
    expect(waits.every((w) => w instanceof Promise)).toBe(true);
    await Promise.all(waits.map((w, i) => w!.then(() => log.push(`reader ${i}`))));
    stop();
    // Each went on in a turn of its own, after the loop's other work had a turn.
    const readers = log.map((e, i) => [e, i] as const).filter(([e]) => e.startsWith('reader'));
    expect(readers.map(([e]) => e)).toEqual(['reader 0', 'reader 1']);
    for (const [, i] of readers) expect(log[i - 1]).toBe('turn');
    // A new turn: the budget is whole again.
    await new Promise((r) => setImmediate(r));
    expect(afterArrivalWork(1_000)).toBeNull();
    expect(afterArrivalWork(1_000)).toBeNull();
  });
});
