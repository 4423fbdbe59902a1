import { describe, expect, it } from 'vitest';
import { agoText, isRecent, RECENT_CHANGE_MS } from './recent-change';

describe('recent change', () => {
  it('marks a change as recent for five minutes, and says how long ago it was', () => {
    expect(isRecent(1000, 1000 + RECENT_CHANGE_MS - 1)).toBe(true);
    expect(isRecent(1000, 1000 + RECENT_CHANGE_MS)).toBe(false);
    expect(agoText(0, 12_400)).toBe('12s ago');
    expect(agoText(0, 190_000)).toBe('3m ago');
  });
});
