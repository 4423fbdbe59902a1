/**
 * The diff's forms for programs: `-o json` (the structured form, docs/diff-format.md) and `-o patch`
 * (NDJSON, one line per pod that differs, with its RFC 6902 patch). int64 values beyond 2^53 stay exact
 * numbers, as in kubectl's JSON.
 */
import { formatPath } from './diff-path';
import type { PodDiff, PodSetDiff } from './diff-pods';
import type { JsonValue } from './diff-values';

/** JSON text where bigints are plain numbers (JSON.stringify refuses them). */
export function exactJson(value: unknown, indent?: number): string {
  // Bigints go through as marked strings; the marker is new each call, so no string in a pod can fake one.
  const marker = `bigint${Math.random().toString(36).slice(2)}:`;
  let big = false;
  const text = JSON.stringify(value, (_, v: unknown) => (typeof v === 'bigint' ? ((big = true), `${marker}${v}`) : v), indent);
  return big ? text.replace(new RegExp(`"${marker}(-?\\d+)"`, 'g'), '$1') : text;
}

export interface DiffSideInfo {
  /** The source as given (`worker-1`, `unix:/run/pods.sock`, `snap.json`, `rec.ndjson@+5m`). */
  source: string;
  /** The mask the source was read with, when it had one. */
  mask?: string;
}

const changeJson = (c: PodDiff['changes'][number]) => ({
  path: formatPath(c.path),
  kind: c.kind,
  ...(c.before !== undefined ? { before: c.before } : {}),
  ...(c.after !== undefined ? { after: c.after } : {}),
  ...(c.ignoredBy !== undefined ? { ignoredBy: c.ignoredBy } : {}),
});

/** The structured form of a comparison, versioned so scripts can rely on it. */
export function podSetDiffJson(diff: PodSetDiff, left: DiffSideInfo, right: DiffSideInfo, notes: string[] = []): string {
  return `${exactJson(
    {
      kind: 'NodescopeDiff',
      version: 1,
      left,
      right,
      counts: diff.counts,
      rules: { samePod: diff.rules.samePod, differentPods: diff.rules.differentPods },
      notes,
      pods: diff.pods
        .filter((p) => p.change !== 'unchanged')
        .map((p) => ({
          change: p.change,
          ...(p.matchedBy ? { matchedBy: p.matchedBy } : {}),
          ...(p.left ? { left: p.left } : {}),
          ...(p.right ? { right: p.right } : {}),
          changes: p.changes.map(changeJson),
          patch: p.patch,
        })),
    },
    2,
  )}\n`;
}

/** `-o patch`: one NDJSON line per pod that differs; a left/right UID pair when not matched by UID. */
export function podSetPatchLines(diff: PodSetDiff): string {
  let out = '';
  for (const p of diff.pods) {
    if (p.change === 'unchanged') continue;
    const ref = p.right ?? p.left!;
    const line: Record<string, JsonValue> = { uid: ref.uid, namespace: ref.namespace, name: ref.name, change: p.change };
    if (p.left && p.right && p.matchedBy !== 'uid') {
      line.left = p.left.uid;
      line.right = p.right.uid;
    }
    line.patch = p.patch as unknown as JsonValue;
    out += `${exactJson(line)}\n`;
  }
  return out;
}
