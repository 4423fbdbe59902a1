/**
 * The path summary people read: one line per change, grouped by pod, e.g.
 *   ~ default/api-7d4f (changed)
 *       spec.containers[name=app].image: "api:1.4" → "api:1.5"
 */
import { formatPath } from './diff-path';
import type { JsonValue, ValueChange } from './diff-values';
import { shownChanges, type PodDiff, type PodSetDiff } from './diff-pods';

const MAX_VALUE = 100;

/** A value in one line: scalars as JSON, structures compact and cut at MAX_VALUE characters. */
export function valueText(value: JsonValue | undefined): string {
  const text = JSON.stringify(value, (_, v: unknown) => (typeof v === 'bigint' ? `${v}` : v)) ?? 'undefined';
  return text.length > MAX_VALUE ? `${text.slice(0, MAX_VALUE - 1)}…` : text;
}

export function changeLine(change: ValueChange): string {
  const path = formatPath(change.path) || '(the whole pod)';
  switch (change.kind) {
    case 'added':
      return `${path}: added ${valueText(change.after)}`;
    case 'removed':
      return `${path}: removed (was ${valueText(change.before)})`;
    case 'reordered':
      return `${path}: order changed`;
    case 'changed':
      return `${path}: ${valueText(change.before)} → ${valueText(change.after)}`;
  }
}

export interface TextStyle {
  /** Wraps a line's marker and heading for a terminal (colour); identity when piped. */
  added(s: string): string;
  removed(s: string): string;
  changed(s: string): string;
}

export const PLAIN: TextStyle = { added: (s) => s, removed: (s) => s, changed: (s) => s };

function podName(diff: PodDiff): string {
  const ref = diff.right ?? diff.left!;
  const name = ref.namespace ? `${ref.namespace}/${ref.name}` : ref.name || ref.uid;
  if (diff.left && diff.right && diff.matchedBy && diff.matchedBy !== 'uid') {
    const other = diff.left.namespace ? `${diff.left.namespace}/${diff.left.name}` : diff.left.name;
    return `${other} ↔ ${name} (matched by ${diff.matchedBy === 'mirror' ? 'mirror annotation' : 'namespace/name'})`;
  }
  return name;
}

/** One pod's block: its heading and, for a changed pod, a line per shown change. */
export function podDiffText(diff: PodDiff, style: TextStyle = PLAIN): string[] {
  switch (diff.change) {
    case 'added':
      return [style.added(`+ ${podName(diff)} (only on the right)`)];
    case 'removed':
      return [style.removed(`- ${podName(diff)} (only on the left)`)];
    case 'unchanged':
      return [`  ${podName(diff)}: no differences`];
    case 'changed': {
      const lines = shownChanges(diff).map((c) => `    ${changeLine(c)}`);
      return [style.changed(`~ ${podName(diff)}`), ...lines];
    }
  }
}

/** The whole comparison: changed, added and removed pods, then the counts and the hidden noise. */
export function podSetDiffText(diff: PodSetDiff, style: TextStyle = PLAIN): string {
  const lines = diff.pods.filter((p) => p.change !== 'unchanged').flatMap((p) => podDiffText(p, style));
  const { added, removed, changed, unchanged } = diff.counts;
  lines.push(`${changed} changed, ${added} only on the right, ${removed} only on the left, ${unchanged} unchanged`);
  const rules = new Map([...diff.rules.samePod, ...diff.rules.differentPods].map((r) => [r.id, r.title]));
  if (rules.size > 0) lines.push(`not shown: ${[...rules.values()].join('; ')} (--no-default-ignores shows them)`);
  return `${lines.join('\n')}\n`;
}
