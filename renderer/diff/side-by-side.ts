/**
 * Two kubectl JSON texts as side-by-side rows: equal lines pair up, a changed run pairs its removed
 * lines with its added ones, and long unchanged runs fold to a few lines of context around each change.
 * The structural diff says what changed by path; this lays the two texts out so people see where.
 */
import { diffLines } from 'diff';

export type SideRow =
  | { kind: 'same'; left: number; right: number; text: string }
  /** `noise`: every line of it is hidden by a noise rule; shown plain, folded away like unchanged lines, never a stop. */
  | { kind: 'change'; left?: { line: number; text: string }; right?: { line: number; text: string }; noise?: true }
  | { kind: 'fold'; lines: number; from: number };

export interface SideBySide {
  rows: SideRow[];
  /** Index in `rows` of the first row of each change (noise aside), for moving between changes. */
  hunks: number[];
}

const split = (value: string) => value.replace(/\n$/, '').split('\n');

/** Whether a changed row, by its line numbers on each side (1-based), is only noise. */
export type IsNoise = (left: number | undefined, right: number | undefined) => boolean;

/** A change people read: not one a noise rule hides. */
const shows = (row: SideRow | undefined): boolean => row?.kind === 'change' && !row.noise;

/** `context` unchanged lines stay around each change; `unfolded` holds the `from` of folds opened. */
export function sideBySide(left: string, right: string, context = 3, unfolded: ReadonlySet<number> = new Set(), isNoise: IsNoise = () => false): SideBySide {
  const all: SideRow[] = [];
  let l = 1;
  let r = 1;
  const parts = diffLines(left, right);
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    if (!part.added && !part.removed) {
      for (const text of split(part.value)) all.push({ kind: 'same', left: l++, right: r++, text });
      continue;
    }
    // A removal followed by an addition is one change: its lines face each other.
    const removed = part.removed ? split(part.value) : [];
    const next = parts[i + 1];
    const added = part.added ? split(part.value) : next?.added ? (i++, split(next.value)) : [];
    for (let k = 0; k < Math.max(removed.length, added.length); k++) {
      const row: SideRow = { kind: 'change' };
      if (k < removed.length) row.left = { line: l++, text: removed[k]! };
      if (k < added.length) row.right = { line: r++, text: added[k]! };
      if (isNoise(row.left?.line, row.right?.line)) row.noise = true;
      all.push(row);
    }
  }

  const rows: SideRow[] = [];
  const hunks: number[] = [];
  const near = all.map(() => false);
  all.forEach((row, i) => {
    if (!shows(row)) return;
    for (let k = Math.max(0, i - context); k <= Math.min(all.length - 1, i + context); k++) near[k] = true;
  });
  for (let i = 0; i < all.length; i++) {
    const row = all[i]!;
    if (shows(row)) {
      if (!shows(all[i - 1])) hunks.push(rows.length);
      rows.push(row);
      continue;
    }
    if (near[i]) {
      rows.push(row);
      continue;
    }
    let end = i;
    while (end + 1 < all.length && !near[end + 1] && !shows(all[end + 1])) end++;
    if (end - i + 1 <= 2 || unfolded.has(i)) for (let k = i; k <= end; k++) rows.push(all[k]!);
    else rows.push({ kind: 'fold', lines: end - i + 1, from: i });
    i = end;
  }
  return { rows, hunks };
}

/** The rows of a fold once opened: sideBySide with its `from` in `unfolded`. */
export const unfold = (unfolded: ReadonlySet<number>, from: number): Set<number> => new Set([...unfolded, from]);
