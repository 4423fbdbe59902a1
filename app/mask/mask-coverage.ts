/**
 * How much of a field a mask keeps, from its canonical paths alone (no schema): what the table, the
 * summary and the builder need to tell "not selected" from "absent" or "empty".
 */

export type Coverage = 'all' | 'some' | 'none';

/**
 * 'all' when a mask path is `path` or above it, 'some' when mask paths reach below it, else 'none'.
 * No paths (no mask) keeps everything.
 */
export function coverage(paths: readonly string[], path: string): Coverage {
  if (paths.length === 0) return 'all';
  let some = false;
  for (const p of paths) {
    if (p === path || path.startsWith(`${p}.`)) return 'all';
    if (p.startsWith(`${path}.`)) some = true;
  }
  return some ? 'some' : 'none';
}

/** Whether the mask keeps anything of `path` (all or part of it). */
export const keepsAnyOf = (paths: readonly string[], path: string): boolean => coverage(paths, path) !== 'none';

/**
 * Whether pods fetched with the mask `fetched` (canonical paths; [] for whole pods) still hold
 * everything the mask `wanted` selects, so they can be shown through it without asking again.
 */
export function fetchedCovers(fetched: readonly string[], wanted: readonly string[]): boolean {
  if (fetched.length === 0) return true;
  if (wanted.length === 0) return false;
  return wanted.every((path) => coverage(fetched, path) === 'all');
}

/** The canonical paths both masks select ([] for two whole pods): each path of one that the other keeps whole. */
export function sharedPaths(a: readonly string[], b: readonly string[]): string[] {
  if (a.length === 0) return [...b];
  if (b.length === 0) return [...a];
  return [...a.filter((p) => coverage(b, p) === 'all'), ...b.filter((p) => coverage(a, p) === 'all')];
}
