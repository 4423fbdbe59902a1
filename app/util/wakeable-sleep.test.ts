import { afterEach, describe, expect, it, vi } from 'vitest';
import { wakeableSleep } from './wakeable-sleep';

/** Whether `p` has settled by the time queued callbacks have run. */
async function settled(p: Promise<unknown>): Promise<boolean> {
  let done = false;
  void p.then(() => (done = true));
  await Promise.resolve();
  await Promise.resolve();
  return done;
}

describe('wakeableSleep', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('resolves once the time is up, not before', async () => {
    vi.useFakeTimers();
    const s = wakeableSleep();
    const waiting = s.sleep(1000);
    await vi.advanceTimersByTimeAsync(999);
    expect(await settled(waiting)).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await settled(waiting)).toBe(true);
  });

  it('resolves at once when woken, and leaves no timer running', async () => {
    vi.useFakeTimers();
    const s = wakeableSleep();
    const waiting = s.sleep(60_000);
    expect(vi.getTimerCount()).toBe(1);
    s.wake();
    expect(await settled(waiting)).toBe(true);
    // A closed session or watch must not hold the process open for the rest of its backoff.
    expect(vi.getTimerCount()).toBe(0);
  });

  it('ignores a wake when nothing sleeps, so the next sleep still waits its full time', async () => {
    vi.useFakeTimers();
    const s = wakeableSleep();
    s.wake();
    const first = s.sleep(10);
    await vi.advanceTimersByTimeAsync(10);
    expect(await settled(first)).toBe(true);
    s.wake();
    const next = s.sleep(500);
    expect(await settled(next)).toBe(false);
    await vi.advanceTimersByTimeAsync(500);
    expect(await settled(next)).toBe(true);
  });

  // A delay of ten minutes outlasts the test's own timeout: only the wake can end this sleep.
  it('wakes with real timers too, well before the delay', async () => {
    const s = wakeableSleep();
    setTimeout(() => s.wake(), 20);
    await s.sleep(10 * 60_000);
  });
});
