import type { Move } from './key-bindings';

/** The uid a move (j/k/g/G) selects among the rows shown; the first row when none is selected yet. */
export function moveSelection(uids: readonly string[], selected: string | null, move: Move): string | undefined {
  if (uids.length === 0) return undefined;
  const at = selected === null ? -1 : uids.indexOf(selected);
  const last = uids.length - 1;
  if (move === 'first') return uids[0];
  if (move === 'last') return uids[last];
  if (at < 0) return uids[0];
  return uids[Math.min(last, Math.max(0, move === 'down' ? at + 1 : at - 1))];
}
