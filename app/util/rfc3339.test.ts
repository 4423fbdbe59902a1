import { describe, expect, it } from 'vitest';
import { parseRfc3339 } from './rfc3339';

describe('parseRfc3339', () => {
  it('reads the times Nodescope writes, and offsets, to the millisecond', () => {
    expect(parseRfc3339('2026-11-23T10:00:01.250Z')).toBe(Date.UTC(2026, 10, 23, 10, 0, 1, 250));
    expect(parseRfc3339('2026-11-23T12:00:01+02:00')).toBe(Date.UTC(2026, 10, 23, 10, 0, 1));
    expect(parseRfc3339('2026-11-23t09:30:01.9999-00:30')).toBe(Date.UTC(2026, 10, 23, 10, 0, 1, 999));
    expect(parseRfc3339('2024-02-29T00:00:00Z')).toBe(Date.UTC(2024, 1, 29));
  });

  it('refuses what Date.parse takes but RFC 3339 is not: other forms, no zone, impossible dates', () => {
    for (const text of ['2026-11-23 10:00:01Z', '2026-11-23T10:00:01', 'Mon, 23 Nov 2026 10:00:01 GMT', '2026-11-23', '2026-11-23T10:00Z', '2026-02-31T00:00:00Z', '2026-02-29T00:00:00Z', '2026-11-23T24:00:00Z', '2026-11-23T10:00:60Z', '2026-11-23T10:00:00+24:00', ' 2026-11-23T10:00:00Z']) {
      expect(parseRfc3339(text), text).toBeUndefined();
    }
  });
});
