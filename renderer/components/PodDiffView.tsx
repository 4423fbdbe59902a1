import { useEffect, useMemo, useRef, useState } from 'react';
import { formatPath, type DiffPath } from '../../app/diff/diff-path';
import { diffPod, shownChanges } from '../../app/diff/diff-pods';
import { exactJson } from '../../app/diff/diff-output';
import { changeLine } from '../../app/diff/diff-text';
import type { JsonValue } from '../../app/diff/diff-values';
import { exactJsonValue } from '../../app/diff/exact-json-value';
import { changeRank } from '../../app/diff/change-order';
import { podRef } from '../../app/diff/match-pods';
import { activeRules, compileIgnore } from '../../app/diff/noise-rules';
import { jsonLinePaths } from '../diff/line-paths';
import { sideBySide, unfold, type SideBySide } from '../diff/side-by-side';
import { NoiseRulesFields, useNoiseChoice } from './NoiseRulesFields';

export interface DiffSide {
  /** What this side is, for people: "worker-1 · live", "version 3 · 12:04:10 MODIFIED". */
  label: string;
  /** The pod's kubectl JSON, as the JSON view shows it. */
  json: string;
}

/**
 * One pod against another (or against itself at another time): each change listed by path, the two
 * JSON texts side by side with unchanged regions folded, the noise rules in view and switchable,
 * n / p to move between changes, and the path summary or the JSON Patch to copy.
 */
export function PodDiffView(props: { left: DiffSide; right: DiffSide; differentPods?: boolean }) {
  const { left, right } = props;
  // Exact: int64 beyond 2^53 (JSON.parse would round them) must not show as a change or patch wrongly.
  const parsed = useMemo(() => [exactJsonValue(left.json), exactJsonValue(right.json)] as const, [left.json, right.json]);
  const different = props.differentPods ?? podRef(parsed[0]).uid !== podRef(parsed[1]).uid;
  const noise = useNoiseChoice(different);
  const [unfolded, setUnfolded] = useState<ReadonlySet<number>>(new Set());
  const [hunk, setHunk] = useState(0);
  const [notice, setNotice] = useState<string | null>(null);
  const bodyRef = useRef<HTMLDivElement>(null);

  const diff = useMemo(() => diffPod(parsed[0], parsed[1], noise.settings, different), [parsed, noise.key, different]);
  const shown = shownChanges(diff);
  const hidden = new Map<string, number>();
  for (const c of diff.changes) if (c.ignoredBy) hidden.set(c.ignoredBy, (hidden.get(c.ignoredBy) ?? 0) + 1);
  // Managed fields are pages of server bookkeeping: while their rule hides them, the texts leave them out too.
  const hideManaged = noise.isOn('managedFields');
  const texts = useMemo(
    () =>
      // Both sides through one printer, or a side printed otherwise (a final newline) would read as a change.
      hideManaged && (hasManagedFields(parsed[0]) || hasManagedFields(parsed[1]))
        ? [withoutManagedFields(parsed[0]), withoutManagedFields(parsed[1])]
        : [left.json, right.json],
    [parsed, hideManaged],
  );
  // Each line's path, so a changed line the rules hide is shown plain and skipped, and the stops go
  // in the order the change list reads (spec and readiness first, timestamps last).
  const paths = useMemo(() => [jsonLinePaths(texts[0]!, parsed[0]), jsonLinePaths(texts[1]!, parsed[1])] as const, [texts, parsed]);
  const layout = useMemo(() => {
    const ignore = compileIgnore(activeRules(noise.settings, different));
    const hidden = (side: 0 | 1, line: number | undefined) => {
      const path = line === undefined ? undefined : paths[side][line - 1];
      return line === undefined || (path !== undefined && path.length > 0 && ignore(path) !== undefined);
    };
    return sideBySide(texts[0]!, texts[1]!, 3, unfolded, (l, r) => hidden(0, l) && hidden(1, r));
  }, [texts, paths, unfolded, noise.key, different]);
  const stops = useMemo(() => stopsInReadingOrder(layout, paths), [layout, paths]);

  useEffect(() => {
    bodyRef.current?.querySelector(`[data-stop="${hunk}"]`)?.scrollIntoView({ block: 'center' });
  }, [hunk]);

  const step = (by: number) => {
    if (stops.length === 0) return;
    setHunk((h) => (h + by + stops.length) % stops.length);
  };

  const flash = (text: string) => {
    setNotice(text);
    setTimeout(() => setNotice(null), 1800);
  };
  const copy = async (text: string, what: string) => {
    try {
      await navigator.clipboard.writeText(text);
      flash(`Copied the ${what}`);
    } catch {
      flash('The clipboard is not available here');
    }
  };
  const summaryText = shown.map(changeLine).join('\n');
  const patchText = exactJson(diff.patch, 2);

  return (
    <div
      className="diff-view"
      tabIndex={0}
      aria-label={`Differences between ${left.label} and ${right.label}`}
      onKeyDown={(e) => {
        if (e.target instanceof HTMLInputElement) return;
        if (e.key === 'n' || e.key === ']') {
          e.preventDefault();
          step(1);
        } else if (e.key === 'p' || e.key === '[') {
          e.preventDefault();
          step(-1);
        }
      }}
    >
      <div className="diff-head">
        <span className="diff-side-label left mono small">− {left.label}</span>
        <span className="diff-side-label right mono small">+ {right.label}</span>
      </div>
      <div className="json-tools">
        <strong aria-live="polite">{shown.length === 0 ? 'No differences' : `${shown.length} ${shown.length === 1 ? 'change' : 'changes'}`}</strong>
        <button type="button" className="button small" onClick={() => step(-1)} disabled={stops.length === 0} title="Previous change (p)">
          ↑ Prev
        </button>
        <button type="button" className="button small" onClick={() => step(1)} disabled={stops.length === 0} title="Next change (n)">
          ↓ Next
        </button>
        <span className="spacer" />
        <button type="button" className="button small" onClick={() => void copy(summaryText, 'path summary')} disabled={shown.length === 0}>
          Copy summary
        </button>
        <button type="button" className="button small" onClick={() => void copy(patchText, 'JSON Patch')} disabled={diff.patch.length === 0}>
          Copy JSON Patch
        </button>
      </div>
      <NoiseRulesFields choice={noise} hidden={hidden} />
      {notice && (
        <div className="toast" role="status">
          {notice}
        </div>
      )}
      {shown.length > 0 && (
        <ul className="diff-changes mono small" aria-label="Changes by path">
          {shown.map((c, i) => (
            <li key={i} className={`diff-change ${c.kind}`} title={formatPath(c.path)}>
              {changeLine(c)}
            </li>
          ))}
        </ul>
      )}
      <div className="diff-body mono small" ref={bodyRef} role="table" aria-label="Side by side">
        {layout.rows.map((row, i) => {
          if (row.kind === 'fold') {
            return (
              <button key={`f${row.from}`} type="button" className="diff-fold" onClick={() => setUnfolded(unfold(unfolded, row.from))}>
                ⋯ {row.lines} unchanged lines
              </button>
            );
          }
          const stop = stops.indexOf(i);
          const current = stop !== -1 && stop === hunk % Math.max(1, stops.length);
          const [l, r] = row.kind === 'same' ? [{ line: row.left, text: row.text }, { line: row.right, text: row.text }] : [row.left, row.right];
          const shown = row.kind === 'change' && !row.noise;
          return (
            <div
              key={i}
              role="row"
              className={`diff-row ${row.kind === 'change' && row.noise ? 'noise' : row.kind}${current ? ' current' : ''}`}
              {...(stop !== -1 ? { 'data-stop': stop } : {})}
              {...(row.kind === 'change' && row.noise ? { title: 'Hidden as noise' } : {})}
            >
              <span className="json-gutter">{l?.line ?? ''}</span>
              <code role="cell" className={shown && l ? 'removed' : ''}>
                {l?.text ?? ''}
              </code>
              <span className="json-gutter">{r?.line ?? ''}</span>
              <code role="cell" className={shown && r ? 'added' : ''}>
                {r?.text ?? ''}
              </code>
            </div>
          );
        })}
      </div>
    </div>
  );
}

/**
 * The rows Next and Prev stop at: the first row of each change, in the change list's reading order
 * (change-order.ts: a change reads as its most important line), the text's order within a rank.
 */
function stopsInReadingOrder(layout: SideBySide, paths: readonly [DiffPath[], DiffPath[]]): number[] {
  const rankOf = (start: number) => {
    let rank = Number.POSITIVE_INFINITY;
    for (let i = start; i < layout.rows.length; i++) {
      const row = layout.rows[i]!;
      if (row.kind !== 'change') break;
      if (row.noise) continue;
      for (const [side, line] of [[0, row.left?.line], [1, row.right?.line]] as const) {
        const path = line === undefined ? undefined : paths[side][line - 1];
        if (path) rank = Math.min(rank, changeRank(path));
      }
    }
    return rank;
  };
  return layout.hunks
    .map((row, k) => ({ row, k, rank: rankOf(row) }))
    .sort((a, b) => a.rank - b.rank || a.k - b.k)
    .map(({ row }) => row);
}

const metadataOf = (pod: JsonValue) => (pod && typeof pod === 'object' && !Array.isArray(pod) && pod.metadata && typeof pod.metadata === 'object' && !Array.isArray(pod.metadata) ? pod.metadata : null);

const hasManagedFields = (pod: JsonValue) => 'managedFields' in (metadataOf(pod) ?? {});

/** The pod's JSON text without metadata.managedFields, printed as the JSON view does (4 spaces). */
function withoutManagedFields(pod: JsonValue): string {
  const meta = metadataOf(pod);
  if (!meta) return exactJson(pod, 4);
  const { managedFields: _, ...rest } = meta;
  return exactJson({ ...(pod as object), metadata: rest }, 4);
}
