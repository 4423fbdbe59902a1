import { describe, expect, it } from 'vitest';
import { handleRequest } from './handle-request';
import { DEFAULT_SETTINGS, formatSize, MAX_MEMORY_BUDGET, MIN_MEMORY_BUDGET, parseSize } from './settings';

describe('sizes as operators write them', () => {
  it('reads binary units, with or without the i and the B, in any case', () => {
    expect(parseSize('1 GiB')).toBe(1024 ** 3);
    expect(parseSize('512M')).toBe(512 * 1024 ** 2);
    expect(parseSize('1.5g')).toBe(1.5 * 1024 ** 3);
    expect(parseSize('64 mb')).toBe(64 * 1024 ** 2);
    expect(parseSize('2000000')).toBe(2_000_000);
    expect(parseSize('10b')).toBe(10);
  });

  it('refuses what is no size, saying what to write', () => {
    for (const text of ['', 'lots', '1 GB extra', '-1G', '1 PiB', '5ib']) expect(() => parseSize(text)).toThrow(/is not a size: write a number and a unit, e\.g\. 1 GiB/);
  });

  it('writes a size back in the unit it reads from', () => {
    expect(formatSize(1024 ** 3)).toBe('1 GiB');
    expect(formatSize(1.5 * 1024 ** 3)).toBe('1.5 GiB');
    expect(formatSize(512 * 1024 ** 2)).toBe('512 MiB');
    expect(parseSize(formatSize(MIN_MEMORY_BUDGET))).toBe(MIN_MEMORY_BUDGET);
  });
});

describe('settings.set', () => {
  const handlers = { 'settings.set': () => ({ ...DEFAULT_SETTINGS, memoryBudget: MIN_MEMORY_BUDGET }) };
  it('refuses a budget too small or too large, and any field it does not know, before a handler sees it', async () => {
    for (const [input, message] of [
      [{ memoryBudget: 1024 }, /at least 64 MiB/],
      [{ memoryBudget: MAX_MEMORY_BUDGET + 1 }, /at most 4 TiB/],
      [{ memoryBudget: 1.5 }, /integer|int/i],
      [{ memoryBudgetMiB: 100 }, /unrecognized|memoryBudgetMiB/i],
    ] as const) {
      const result = await handleRequest(handlers, 'settings.set', input);
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.error.message).toMatch(message);
    }
    expect((await handleRequest(handlers, 'settings.set', { memoryBudget: MIN_MEMORY_BUDGET })).ok).toBe(true);
  });
});
