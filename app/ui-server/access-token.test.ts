import { describe, expect, it } from 'vitest';
import { accessTokenMatches, newAccessToken } from './access-token';

describe('access token', () => {
  it('is 256 random bits, URL-safe, different every time', () => {
    const a = newAccessToken();
    const b = newAccessToken();
    expect(a).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(a, 'base64url')).toHaveLength(32);
    expect(a).not.toBe(b);
  });

  it('matches only the exact token', () => {
    const t = newAccessToken();
    expect(accessTokenMatches(t, t)).toBe(true);
    expect(accessTokenMatches(t, t.slice(0, -1))).toBe(false);
    expect(accessTokenMatches(t, `${t}x`)).toBe(false);
    expect(accessTokenMatches(t, newAccessToken())).toBe(false);
    expect(accessTokenMatches(t, '')).toBe(false);
    expect(accessTokenMatches(t, null)).toBe(false);
    expect(accessTokenMatches(t, undefined)).toBe(false);
  });
});
