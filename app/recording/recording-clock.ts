/**
 * The time a recording stamps on its lines: the wall clock read once, when the clock is made, then moved on by
 * the monotonic clock. A wall clock stepped meanwhile (NTP, a user, a suspended VM's catch-up) would otherwise
 * stamp every later event at the jumped instant, or out of order; this way order and elapsed time stay true.
 */
export function monotonicWallClock(): () => number {
  const wall = Date.now();
  const mono = performance.now();
  // Whole milliseconds, as the format writes them; flooring a value that never decreases never decreases either.
  return () => wall + Math.floor(performance.now() - mono);
}
