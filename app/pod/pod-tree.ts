/**
 * A decoded pod, shaped exactly like the object `kubectl get pod -o json` prints, so every part of
 * Nodescope (table, detail, masks, diffs, simulator) speaks one vocabulary:
 * - keys are JSON field names; structs embedded with an inline JSON tag (Volume.volumeSource,
 *   Probe.handler, ...) are flattened into their parent, as in JSON;
 * - a key is present exactly when the field was on the wire (presence is kept; no defaults filled in);
 * - no apiVersion/kind (the bytes do not carry them; the printer adds them);
 * - special types: Time is an RFC 3339 UTC string to the second, or null for the zero time;
 *   Quantity is its string; IntOrString is a number or a string; int64 is a number, or a bigint
 *   beyond ±(2^53-1) so it stays exact; FieldsV1 (managedFields[].fieldsV1) is its parsed JSON.
 */
export type PodValue = string | number | bigint | boolean | null | PodValue[] | PodObject;
export interface PodObject {
  [key: string]: PodValue | undefined;
}
export type PodTree = PodObject;

/** Sets a member whose key came from the wire or a file, where keys may be anything: `__proto__` must stay a key, not become the prototype. */
export function setKey(obj: PodObject, key: string, value: PodValue): void {
  if (key === '__proto__') Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
  else obj[key] = value;
}

/** A field our schema does not know (a newer kubelet): kept so nothing is dropped silently. */
export interface UnknownField {
  /** JSON path of the message that held it, e.g. `spec.containers[0]`. */
  path: string;
  fieldNumber: number;
  /** Protobuf wire type: 0 varint, 1 fixed64, 2 length-delimited, 5 fixed32. */
  wireType: number;
  /** The field's raw payload (varint and fixed values as their bytes, little-endian). */
  raw: Uint8Array;
}

export interface DecodedPod {
  pod: PodTree;
  unknownFields: UnknownField[];
}
