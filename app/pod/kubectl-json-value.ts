/**
 * A pod as the JSON value of its kubectl JSON: what the diff compares, so a patch applies to what kubectl
 * prints (zero values included) and pods read from a file compare equal to the same pods read from bytes.
 */
import type { FieldMask } from '../mask/field-mask';
import { podToKubectlJson } from './kubectl-json';
import type { PodTree } from './pod-tree';
import type { JsonValue } from '../diff/diff-values';
import { exactJsonValue } from '../diff/exact-json-value';

/** `mask`: the pod was read through it, so only its fields are printed (none zero-filled). */
export function kubectlJsonValue(pod: PodTree, mask?: FieldMask): JsonValue {
  return exactJsonValue(kubectlJsonText(pod, mask));
}

/** The text that value is read from: kubectl's JSON, managed fields too (a diff's noise rule hides them). */
export function kubectlJsonText(pod: PodTree, mask?: FieldMask): string {
  return podToKubectlJson(pod, { showManagedFields: true, ...(mask ? { mask } : {}) });
}
