/**
 * Which of Go's encoding/json rules applies to a field (docs/pod-json.md, "What kubectl prints"), decided
 * once from the Go field kind. Every kubectl printer (from a tree; from bytes, as JSON and as YAML) applies it.
 */
import type { FieldSchema } from '../schema/pod-schema';

export const enum Rule {
  /** Non-pointer string/number/bool: zero when absent; omitempty drops the zero value. */
  Scalar,
  /** Pointer (scalar, struct or special type): printed when present; absent, omitempty drops it, else null. */
  Pointer,
  /** Non-pointer struct: always printed, `{}` when absent. */
  Struct,
  /** Non-pointer Time: null when zero; omitzero drops it. */
  Time,
  /** Non-pointer Quantity / IntOrString: always printed; their zero is "0" / 0. */
  SpecialValue,
  /** List: omitempty drops it when empty, otherwise an empty one prints null. */
  List,
  /** Map: like a list, keys in Go's byte order. */
  Map,
}

export interface FieldRule {
  rule: Rule;
  /** Whether the zero value (or null time, or empty collection) is left out. */
  omit: boolean;
  /** JSON text of the zero value for Scalar and SpecialValue rules. */
  zeroText: string;
}

export function ruleOf(f: FieldSchema): FieldRule {
  const special = f.message?.special;
  let rule: Rule;
  if (f.goKind === 'map') rule = Rule.Map;
  else if (f.goKind === 'list') rule = Rule.List;
  else if (f.goKind === 'pointer') rule = Rule.Pointer;
  else if (special === 'time') rule = Rule.Time;
  else if (special === 'quantity' || special === 'intOrString') rule = Rule.SpecialValue;
  else if (f.message) rule = Rule.Struct;
  else rule = Rule.Scalar;
  const zeroText = special === 'quantity' ? '"0"' : special === 'intOrString' ? '0' : f.scalar === 'string' ? '""' : f.scalar === 'bool' ? 'false' : '0';
  return { rule, omit: rule === Rule.Time ? f.omitzero : f.omitempty, zeroText };
}

/** kubectl hides the pod's own metadata.managedFields unless --show-managed-fields. */
export const MANAGED_FIELDS = 'managedFields';
