import { describe, expect, it } from 'vitest';
import { timeText, timeTitle, zoneText } from './time-text';

// Local-time instants, so the test reads the same in any zone the machine is in.
const at = (d: number, h: number, m: number, s: number, ms = 0) => new Date(2026, 10, d, h, m, s, ms).getTime();

describe('timeText', () => {
  it('writes 24-hour local time, with the date only on another day than now', () => {
    expect(timeText(at(27, 18, 47, 22, 281), at(27, 23, 0, 0))).toBe('18:47:22');
    expect(timeText(at(26, 6, 5, 9), at(27, 0, 10, 0))).toBe('2026-11-26 06:05:09');
  });

  it('gives the milliseconds and the zone in the tooltip text', () => {
    const t = at(27, 18, 47, 22, 7);
    expect(timeTitle(t)).toBe(`2026-11-27 18:47:22.007 (${zoneText(t)})`);
    expect(zoneText(t)).toMatch(/^local time, UTC[+−]\d\d:\d\d$/);
  });
});
