import { useEffect, useMemo, useRef, useState } from 'react';
import { formatPath } from '../../app/diff/diff-path';
import { diffPod, shownChanges } from '../../app/diff/diff-pods';
import { exactJson } from '../../app/diff/diff-output';
import { changeLine } from '../../app/diff/diff-text';
import type { JsonValue } from '../../app/diff/diff-values';
import { exactJsonValue } from '../../app/diff/exact-json-value';
import { DEFAULT_NOISE_RULES } from '../../app/diff/noise-rules';
import { sideBySide, unfold } from '../diff/side-by-side';
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
  const noise = useNoiseChoice();
  const [unfolded, setUnfolded] = useState<ReadonlySet<number>>(new Set());
  const [hunk, setHunk] = useState(0);
  const [notice, setNotice] = useState<string | null>(null);
  const bodyRef = useRef<HTMLDivElement>(null);

  // Exact: int64 beyond 2^53 (JSON.parse would round them) must not show as a change or patch wrongly.
  const parsed = useMemo(() => [exactJsonValue(left.json), exactJsonValue(right.json)] as const, [left.json, right.json]);
  const diff = useMemo(() => diffPod(parsed[0], parsed[1], noise.settings, props.differentPods), [parsed, noise.key, props.differentPods]);
  const shown = shownChanges(diff);
  const hidden = new Map<string, number>();
  for (const c of diff.changes) if (c.ignoredBy) hidden.set(c.ignoredBy, (hidden.get(c.ignoredBy) ?? 0) + 1);
  const different = props.differentPods ?? diff.left?.uid !== diff.right?.uid;
  const rules = DEFAULT_NOISE_RULES.filter((r) => r.scope === 'always' || different);
  // Managed fields are pages of server bookkeeping: while their rule hides them, the texts leave them out too.
  const hideManaged = !noise.disabled.has('managedFields');
  const texts = useMemo(
    () =>
      // Both sides through one printer, or a side printed otherwise (a final newline) would read as a change.
      hideManaged && (hasManagedFields(parsed[0]) || hasManagedFields(parsed[1]))
        ? [withoutManagedFields(parsed[0]), withoutManagedFields(parsed[1])]
        : [left.json, right.json],
    [parsed, hideManaged],
  );
  const layout = useMemo(() => sideBySide(texts[0]!, texts[1]!, 3, unfolded), [texts, unfolded]);

  useEffect(() => {
    bodyRef.current?.querySelector(`[data-hunk="${hunk}"]`)?.scrollIntoView({ block: 'center' });
  }, [hunk]);

  const step = (by: number) => {
    if (layout.hunks.length === 0) return;
    setHunk((h) => (h + by + layout.hunks.length) % layout.hunks.length);
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
        <button type="button" className="button small" onClick={() => step(-1)} disabled={layout.hunks.length === 0} title="Previous change (p)">
          ↑ Prev
        </button>
        <button type="button" className="button small" onClick={() => step(1)} disabled={layout.hunks.length === 0} title="Next change (n)">
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
      <NoiseRulesFields choice={noise} rules={rules} hidden={hidden} />
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
          const hunkIndex = layout.hunks.indexOf(i);
          const current = hunkIndex !== -1 && hunkIndex === hunk;
          const [l, r] = row.kind === 'same' ? [{ line: row.left, text: row.text }, { line: row.right, text: row.text }] : [row.left, row.right];
          return (
            <div key={i} role="row" className={`diff-row ${row.kind}${current ? ' current' : ''}`} {...(hunkIndex !== -1 ? { 'data-hunk': hunkIndex } : {})}>
              <span className="json-gutter">{l?.line ?? ''}</span>
              <code role="cell" className={row.kind === 'change' && l ? 'removed' : ''}>
                {l?.text ?? ''}
              </code>
              <span className="json-gutter">{r?.line ?? ''}</span>
              <code role="cell" className={row.kind === 'change' && r ? 'added' : ''}>
                {r?.text ?? ''}
              </code>
            </div>
          );
        })}
      </div>
    </div>
  );
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
