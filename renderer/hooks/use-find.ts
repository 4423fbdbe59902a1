import { useMemo, useState, type ChangeEvent, type KeyboardEvent } from 'react';

/** The lines holding `needle` (lower case), by index; none for an empty needle. */
export function findLines(texts: readonly string[], needle: string): number[] {
  return needle ? texts.flatMap((t, i) => (t.toLowerCase().includes(needle) ? [i] : [])) : [];
}

/** The match after (+1) or before (-1) `current` among `count`, round the end; `current` past the last counts as the last. */
export const stepMatch = (current: number, by: 1 | -1, count: number): number => (count === 0 ? 0 : (Math.min(current, count - 1) + by + count) % count);

/** "2/7", "no match", or nothing while nothing is sought. */
export const matchCountText = (needle: string, current: number, count: number): string => (needle ? (count ? `${Math.min(current, count - 1) + 1}/${count}` : 'no match') : '');

/**
 * Find in a text shown as lines (a log, a pod's JSON or YAML): what is typed, the lines that hold it
 * (case-insensitively), the current one, Enter / Shift+Enter and ↓/↑ to the next and previous, round the
 * end. `version`: a change of the lines that keeps the same array (a log that grows in place).
 */
export function useFind(texts: readonly string[], version?: unknown) {
  const [query, setQuery] = useState('');
  const [current, setCurrent] = useState(0);
  const needle = query.toLowerCase();
  const matches = useMemo(() => findLines(texts, needle), [texts, needle, version]);
  const step = (by: 1 | -1) => setCurrent((c) => stepMatch(c, by, matches.length));
  return {
    needle,
    matches,
    /** The line of the current match; undefined with none. */
    currentLine: matches.length ? matches[Math.min(current, matches.length - 1)] : undefined,
    step,
    countText: matchCountText(needle, current, matches.length),
    /** For the find box. */
    inputProps: {
      value: query,
      onChange: (e: ChangeEvent<HTMLInputElement>) => {
        setQuery(e.target.value);
        setCurrent(0);
      },
      onKeyDown: (e: KeyboardEvent) => {
        if (e.key === 'Enter') step(e.shiftKey ? -1 : 1);
      },
    },
  };
}
