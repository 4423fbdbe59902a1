import { decodePod } from '../pod/decode';
import type { PodObject, UnknownField } from '../pod/pod-tree';

const WIRE_NAMES = ['varint', 'fixed64', 'bytes', 'group', 'group end', 'fixed32'];

/** One line for stderr: fields a newer kubelet sent that this version leaves out of the JSON. */
export function unknownFieldsWarning(pod: string, fields: UnknownField[]): string {
  const list = fields.map((f) => `${f.path || '(pod)'}#${f.fieldNumber} (${WIRE_NAMES[f.wireType] ?? f.wireType}, ${f.raw.length} bytes)`);
  return `warning: pod ${pod}: ${fields.length} field${fields.length === 1 ? '' : 's'} unknown to this Nodescope (a newer kubelet?) left out of the JSON: ${list.join(', ')}`;
}

/** The same line for a pod still in wire bytes (printed without building its tree): named as namespace/name. */
export function unknownFieldsWarningForBytes(bytes: Uint8Array, fields: UnknownField[]): string {
  const meta = decodePod(bytes).pod.metadata as PodObject | undefined;
  const name = String(meta?.name ?? '?');
  return unknownFieldsWarning(meta?.namespace ? `${String(meta.namespace)}/${name}` : name, fields);
}
