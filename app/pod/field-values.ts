/**
 * A pod field's values by its mask path (`status.containerStatuses.restartCount`): through lists it
 * reaches every element's, as a mask path names the field in each. For the table's columns of fields.
 */
import { valueText } from '../cli/json-path';
import type { PodTree, PodValue } from './pod-tree';

const isObject = (v: PodValue): v is Exclude<PodValue, PodValue[]> & object => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The values as text (a list's elements each), or null when the pod has no such field. */
export function fieldValues(pod: PodTree, path: string): string[] | null {
  let current: PodValue[] = [pod];
  for (const name of path.split('.')) {
    const next: PodValue[] = [];
    for (const v of current.flatMap((c) => (Array.isArray(c) ? c : [c]))) {
      if (isObject(v) && Object.hasOwn(v, name) && v[name] !== undefined) next.push(v[name]);
    }
    current = next;
  }
  if (current.length === 0) return null;
  // A list at the end is its elements: containers' args read as each argument.
  return current.flatMap((v) => (Array.isArray(v) ? v : [v])).map(valueText);
}
