/**
 * Fields one side could not have: an export made without --show-managed-fields has no managedFields, while a
 * live node always sends them. Comparing those would call every pod changed; they are left out of both sides
 * instead, and the comparison says so.
 */
import type { JsonValue } from './diff-values';

type Obj = { [key: string]: JsonValue | undefined };
const meta = (pod: JsonValue): Obj | undefined => {
  const m = typeof pod === 'object' && pod !== null && !Array.isArray(pod) ? pod.metadata : undefined;
  return typeof m === 'object' && m !== null && !Array.isArray(m) ? m : undefined;
};
const hasManagedFields = (pods: readonly JsonValue[]) => pods.some((p) => meta(p)?.managedFields !== undefined);

function withoutManagedFields(pod: JsonValue): JsonValue {
  const m = meta(pod);
  if (!m || m.managedFields === undefined) return pod;
  const { managedFields: _dropped, ...rest } = m;
  return { ...(pod as Obj), metadata: rest };
}

/** Both sides with only what both could carry, and a note per field left out. */
export function alignSides(left: JsonValue[], right: JsonValue[], names: { left: string; right: string }): { left: JsonValue[]; right: JsonValue[]; notes: string[] } {
  const l = hasManagedFields(left);
  const r = hasManagedFields(right);
  if (l === r || left.length === 0 || right.length === 0) return { left, right, notes: [] };
  const without = l ? names.right : names.left;
  return {
    left: left.map(withoutManagedFields),
    right: right.map(withoutManagedFields),
    notes: [`${without} has no managedFields (exported without --show-managed-fields): they are not compared`],
  };
}
