import type { UnknownField } from '../pod/pod-tree';

const WIRE_NAMES = ['varint', 'fixed64', 'bytes', 'group', 'group end', 'fixed32'];

/** One line for stderr: fields a newer kubelet sent that this version leaves out of the JSON. */
export function unknownFieldsWarning(pod: string, fields: UnknownField[]): string {
  const list = fields.map((f) => `${f.path || '(pod)'}#${f.fieldNumber} (${WIRE_NAMES[f.wireType] ?? f.wireType}, ${f.raw.length} bytes)`);
  return `warning: pod ${pod}: ${fields.length} field${fields.length === 1 ? '' : 's'} unknown to this Nodescope (a newer kubelet?) left out of the JSON: ${list.join(', ')}`;
}
