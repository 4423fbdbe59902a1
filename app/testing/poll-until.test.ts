import { describe, expect, it } from 'vitest';
import { pollUntil } from './poll-until';

describe('pollUntil', () => {
  it('returns the first value that holds', async () => {
    let looks = 0;
    const value = await pollUntil('the third look', () => ++looks, (n) => n >= 3, { intervalMs: 1 });
    expect(value).toBe(3);
    expect(looks).toBe(3);
  });

  it('without a test, waits for anything but undefined or false', async () => {
    const seen = [undefined, false, 0];
    expect(await pollUntil('a value', () => seen.shift(), { intervalMs: 1 })).toBe(0);
  });

  it('fails with what it waited for and the last value it saw', async () => {
    let looks = 0;
    const waiting = pollUntil('the node live', () => ({ phase: 'connecting', looks: ++looks }), (s) => s.phase === 'live', { timeoutMs: 30, intervalMs: 5 });
    await expect(waiting).rejects.toThrow(/^timed out after 30 ms waiting for the node live; last observed: \{ phase: 'connecting', looks: \d+ \}$/);
    expect(looks).toBeGreaterThan(1);
  });

  // A timeout of ten minutes outlasts the test's own: only failing at the throwing look ends this in time.
  it('fails at once when a look throws, without waiting out the timeout', async () => {
    let looks = 0;
    await expect(
      pollUntil(
        'never',
        () => {
          looks++;
          throw new Error('asked about a host key');
        },
        { timeoutMs: 10 * 60_000 },
      ),
    ).rejects.toThrow('asked about a host key');
    expect(looks).toBe(1);
  });
});
