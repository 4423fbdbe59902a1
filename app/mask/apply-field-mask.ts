/**
 * Applying a field mask to a pod tree.
 *
 * Semantics: the result is what a Go server produces by clearing every field the mask does not
 * select on its v1.Pod and marshalling it. So:
 * - a selected member is kept whole (lists, maps, messages and their contents included);
 * - through a message, only the selected members are kept; through a list of messages, every
 *   element is kept (the count never changes) with only the selected members;
 * - nothing is created: a selected member absent from the pod stays absent, and a present message
 *   none of whose selected members are set becomes `{}` (a set pointer stays set in Go);
 * - an unselected non-pointer field of Go is simply absent here; the kubectl printer and the
 *   encoder then produce its Go zero value, exactly as for the Go server's cleared field.
 * The input is never modified and shares nothing with the result.
 */
import { setKey, type PodObject, type PodTree, type PodValue } from '../pod/pod-tree';
import type { FieldMask, Selection } from './field-mask';

function copyValue(value: PodValue): PodValue {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map(copyValue);
  const out: PodObject = {};
  for (const key in value) setKey(out, key, copyValue(value[key]!));
  return out;
}

function select(obj: PodObject, selection: Selection): PodObject {
  const out: PodObject = {};
  for (const { name, list, inner } of selection.members) {
    const value = obj[name];
    if (value === undefined) continue;
    if (inner === undefined || value === null) out[name] = copyValue(value);
    else if (list) out[name] = (value as PodObject[]).map((element) => select(element, inner));
    else out[name] = select(value as PodObject, inner);
  }
  return out;
}

/** The pod with only the mask's fields (see above); precompiled by parseFieldMask, so cheap per pod. */
export function applyFieldMask(pod: PodTree, mask: FieldMask): PodTree {
  return select(pod, mask.selection);
}
