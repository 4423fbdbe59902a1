import type { PodRow } from '../contract';
import type { RowField } from '../pod/view/pod-field-sources';

/**
 * What changed between two versions of a pod, in one line for the events feed — the things an
 * operator watches for: status and phase moves, readiness, restarts, IP assignment, deletion.
 * `hidden` are the values a field mask left out: what cannot be seen is never reported as changed.
 */
export function describePodChange(before: PodRow | undefined, after: PodRow, hidden: ReadonlySet<RowField> = new Set()): string {
  const sees = (field: RowField) => !hidden.has(field);
  if (!before) return sees('status') ? `added (${after.status || 'no status yet'})` : 'added';
  const parts: string[] = [];
  if (sees('status') && !before.deleting && after.deleting) parts.push('terminating');
  if (sees('status') && before.status !== after.status) parts.push(`status ${before.status || '—'} → ${after.status || '—'}`);
  else if (sees('status') && before.phase !== after.phase) parts.push(`phase ${before.phase || '—'} → ${after.phase || '—'}`);
  if (sees('ready') && (before.ready !== after.ready || before.total !== after.total)) {
    parts.push(`ready ${before.ready}/${before.total} → ${after.ready}/${after.total}`);
  }
  if (sees('restarts') && after.restarts > before.restarts) parts.push(`restarted (${after.restarts} restarts)`);
  if (sees('podIP') && before.podIP !== after.podIP) parts.push(after.podIP ? `IP ${after.podIP}` : 'IP released');
  if (sees('labels')) parts.push(...labelChanges(before.labels, after.labels));
  if (sees('node') && parts.length === 0 && before.node !== after.node) parts.push(`node ${after.node}`);
  return parts.length > 0 ? parts.join(', ') : 'updated';
}

/** Label edits are what operators (and controllers) most often do to a running pod; name them. */
function labelChanges(before: Record<string, string>, after: Record<string, string>): string[] {
  const changes: string[] = [];
  for (const [k, v] of Object.entries(after)) {
    if (!(k in before)) changes.push(`label ${k}=${v} added`);
    else if (before[k] !== v) changes.push(`label ${k} ${before[k]} → ${v}`);
  }
  for (const k of Object.keys(before)) if (!(k in after)) changes.push(`label ${k} removed`);
  return changes.length > 2 ? [...changes.slice(0, 2), `${changes.length - 2} more label changes`] : changes;
}
