/**
 * "Did you mean" for misspelt field names: the valid names nearest to a typo by edit distance
 * (adjacent swaps count as one edit, case is ignored), so `contaners` and `PodIP` find their field.
 */

/** Optimal string alignment distance: Levenshtein plus transposition of neighbours. */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[] = new Array<number>(rows * cols);
  for (let i = 0; i < rows; i++) d[i * cols] = i;
  for (let j = 0; j < cols; j++) d[j] = j;
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[(i - 1) * cols + j]! + 1, d[i * cols + j - 1]! + 1, d[(i - 1) * cols + j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, d[(i - 2) * cols + j - 2]! + 1);
      d[i * cols + j] = best;
    }
  }
  return d[rows * cols - 1]!;
}

/**
 * The candidates closest to `typo`, at most `limit`, in the candidates' order; none when even the
 * closest needs more edits than a third of the typo's length (then it is not a typo of any of them).
 */
export function closestNames(typo: string, candidates: readonly string[], limit = 3): string[] {
  const lower = typo.toLowerCase();
  const allowed = Math.max(1, Math.floor(typo.length / 3));
  let best = Infinity;
  let found: string[] = [];
  for (const name of candidates) {
    // The lengths alone bound the distance: skip the table for names that cannot be close.
    if (Math.abs(name.length - typo.length) > Math.min(allowed, best)) continue;
    const distance = editDistance(lower, name.toLowerCase());
    if (distance > allowed || distance > best) continue;
    if (distance < best) {
      best = distance;
      found = [];
    }
    found.push(name);
  }
  return found.slice(0, limit);
}
