import type { ReactNode } from 'react';

/** A piece of a line with its own look: a log's colour run, a JSON or YAML token. */
export interface StyledRun {
  text: string;
  className?: string;
}

/** Where `needle` (lower case) is in `plain`, as [start, end) pairs, as the find box counts them. */
export function matchRanges(plain: string, needle: string): [number, number][] {
  const out: [number, number][] = [];
  const lower = plain.toLowerCase();
  for (let at = lower.indexOf(needle); at >= 0 && needle; at = lower.indexOf(needle, at + needle.length)) out.push([at, at + needle.length]);
  return out;
}

/**
 * A line's runs as spans, with the find box's matches marked. A match is found in the line's whole text, so one
 * that spans runs (a log's colour change, a JSON key and its colon) is marked too, piece by piece.
 */
export function MarkedRuns(props: { runs: readonly StyledRun[]; needle: string }) {
  const ranges = props.needle ? matchRanges(props.runs.map((r) => r.text).join(''), props.needle) : [];
  let offset = 0;
  return (
    <>
      {props.runs.map((run, k) => {
        const end = offset + run.text.length;
        const pieces: ReactNode[] = [];
        let at = offset;
        for (const [s, e] of ranges) {
          if (e <= at || s >= end) continue;
          if (s > at) pieces.push(run.text.slice(at - offset, s - offset));
          pieces.push(<mark key={s}>{run.text.slice(Math.max(s, at) - offset, Math.min(e, end) - offset)}</mark>);
          at = Math.min(e, end);
        }
        if (at < end) pieces.push(run.text.slice(at - offset));
        const start = offset;
        offset = end;
        return (
          <span key={start} className={run.className}>
            {pieces}
          </span>
        );
      })}
    </>
  );
}
