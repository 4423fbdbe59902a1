import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** A fresh 256-bit secret for the browser-mode URL, URL-safe so it survives copy and paste. */
export function newAccessToken(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * Constant-time comparison. Both sides are hashed first so that neither the length nor the
 * position of the first differing byte leaks through timing.
 */
export function accessTokenMatches(expected: string, presented: string | null | undefined): boolean {
  if (typeof presented !== 'string' || presented.length === 0) return false;
  const a = createHash('sha256').update(expected).digest();
  const b = createHash('sha256').update(presented).digest();
  return timingSafeEqual(a, b);
}
