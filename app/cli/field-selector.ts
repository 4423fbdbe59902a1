/**
 * kubectl's --field-selector for pods: `field=value` (or `==`), `field!=value`, joined by commas, over the
 * fields the API server lets a pod list select on (k8s.io/kubernetes pkg/registry/core/pod, ToSelectableFields),
 * each read as the server reads it (an absent field is "", hostNetwork "false", podIP the first of podIPs).
 */
import type { PodTree } from '../pod/pod-tree';
import { listAt, objAt, strAt } from '../pod/view/pod-tree-access';
import { UsageError } from './usage-error';

export interface FieldRequirement {
  field: SelectableField;
  equal: boolean;
  value: string;
}

const spec = (p: PodTree) => objAt(p.spec);
const status = (p: PodTree) => objAt(p.status);

/** Each selectable field: how the server reads it, and the pod fields a mask must keep for it. */
const FIELDS = {
  'metadata.name': { read: (p: PodTree) => strAt(objAt(p.metadata).name), reads: ['metadata.name'] },
  'metadata.namespace': { read: (p: PodTree) => strAt(objAt(p.metadata).namespace), reads: ['metadata.namespace'] },
  'spec.nodeName': { read: (p: PodTree) => strAt(spec(p).nodeName), reads: ['spec.nodeName'] },
  'spec.restartPolicy': { read: (p: PodTree) => strAt(spec(p).restartPolicy), reads: ['spec.restartPolicy'] },
  'spec.schedulerName': { read: (p: PodTree) => strAt(spec(p).schedulerName), reads: ['spec.schedulerName'] },
  'spec.serviceAccountName': { read: (p: PodTree) => strAt(spec(p).serviceAccountName), reads: ['spec.serviceAccountName'] },
  'spec.hostNetwork': { read: (p: PodTree) => String(spec(p).hostNetwork === true), reads: ['spec.hostNetwork'] },
  'status.phase': { read: (p: PodTree) => strAt(status(p).phase), reads: ['status.phase'] },
  // The server reads podIPs[0]; a mask may keep only podIP, the same address.
  'status.podIP': { read: (p: PodTree) => strAt(listAt(status(p).podIPs)[0]?.ip) || strAt(status(p).podIP), reads: ['status.podIPs', 'status.podIP'] },
  'status.nominatedNodeName': { read: (p: PodTree) => strAt(status(p).nominatedNodeName), reads: ['status.nominatedNodeName'] },
} as const;

export type SelectableField = keyof typeof FIELDS;
export const SELECTABLE_FIELDS = Object.keys(FIELDS) as SelectableField[];

/** The pod fields a requirement reads (any one of them kept by a mask is enough). */
export const fieldReads = (r: FieldRequirement): readonly string[] => FIELDS[r.field].reads;

/** Splits at unescaped commas, as kubectl does (`\,` `\=` `\\` are literal). */
function splitUnescaped(text: string, sep: string): string[] {
  const parts: string[] = [];
  let current = '';
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '\\' && i + 1 < text.length) current += text[i++]! + text[i]!;
    else if (text[i] === sep) {
      parts.push(current);
      current = '';
    } else current += text[i];
  }
  parts.push(current);
  return parts;
}

const unescape = (s: string) => s.replace(/\\(.)/g, '$1');

/** Parses --field-selector's text; an empty selector selects every pod. */
export function parseFieldSelector(text: string): FieldRequirement[] {
  if (text.trim() === '') return [];
  return splitUnescaped(text, ',').map((part) => {
    const m = /^\s*([^=!\s]+)\s*(==|=|!=)(.*)$/.exec(part.replace(/\\=/g, '\u0000'));
    if (!m) throw new UsageError(`bad field selector '${part}' in --field-selector '${text}': write field=value or field!=value, joined by commas`);
    const field = m[1]!;
    if (!Object.hasOwn(FIELDS, field)) {
      throw new UsageError(`--field-selector: pods cannot be selected by '${field}'; these fields can: ${SELECTABLE_FIELDS.join(', ')}`);
    }
    return { field: field as SelectableField, equal: m[2] !== '!=', value: unescape(m[3]!.replace(/\u0000/g, '\\=')) };
  });
}

/** Whether the pod meets every requirement. */
export const matchesFields = (requirements: readonly FieldRequirement[], pod: PodTree): boolean =>
  requirements.every((r) => (FIELDS[r.field].read(pod) === r.value) === r.equal);
