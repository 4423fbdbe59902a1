/**
 * Which changes people read first: what the pod is asked to be (spec) and whether it serves
 * (readiness), then the rest of its state and metadata, timestamps last. The diff lists, and its
 * next/previous stops, follow this order, the document's own order within one rank.
 */
import type { DiffPath } from './diff-path';
import { compileIgnore, DEFAULT_NOISE_RULES } from './noise-rules';

/** Timestamps are the paths of the timestamps noise rule: one definition of what a timestamp is. */
const isTimestamp = compileIgnore(DEFAULT_NOISE_RULES.filter((r) => r.id === 'timestamps'));
const READY_CONDITIONS = new Set(['Ready', 'ContainersReady']);

const isReadiness = (path: DiffPath): boolean =>
  path.some((p) => p.kind === 'key' && p.name === 'ready') ||
  path.some((p, i) => p.kind === 'element' && path[i - 1]?.kind === 'key' && (path[i - 1] as { name: string }).name === 'conditions' && p.identity?.some(([f, v]) => f === 'type' && READY_CONDITIONS.has(v)));

/** 0 spec, 1 readiness, 2 the rest, 3 timestamps. */
export function changeRank(path: DiffPath): number {
  if (isTimestamp(path) !== undefined) return 3;
  const top = path[0];
  if (top?.kind === 'key' && top.name === 'spec') return 0;
  if (isReadiness(path)) return 1;
  return 2;
}

/** The changes in reading order (stable: the document's order within a rank). */
export function orderChanges<C extends { path: DiffPath }>(changes: readonly C[]): C[] {
  return changes
    .map((c, i) => ({ c, i, rank: changeRank(c.path) }))
    .sort((a, b) => a.rank - b.rank || a.i - b.i)
    .map(({ c }) => c);
}
