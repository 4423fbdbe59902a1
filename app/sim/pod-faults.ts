/**
 * Pods the simulated kubelet serves broken or odd, as a buggy or newer kubelet might: bytes that do not
 * decode, a uid another pod has, no uid at all, managedFields nested deeper than any real ones. Lets an operator (and the tests) see how Nodescope copes
 * with a node like that. Chosen at start among the initial pods, every other one from the second, so
 * each sits between good pods; a chosen pod stays faulty through its changes (list, get and watch alike,
 * and in the REST API's /pods for pods that do not decode).
 */
import { encodePod } from '../pod/encode';
import type { PodObject, PodTree } from '../pod/pod-tree';

export interface PodFaultCounts {
  /** Pods whose bytes do not decode: a status field cut short, after the metadata (name and uid still read). */
  undecodable?: number;
  /** Pods served with the uid of the first pod. */
  duplicateUids?: number;
  /** Pods served with an empty metadata.uid. */
  emptyUids?: number;
  /** One pod whose managedFields[0].fieldsV1 nests this many levels (Go's JSON stops at 10,000 in all). */
  managedFieldsDepth?: number;
}

type Fault = 'undecodable' | 'duplicateUid' | 'emptyUid' | 'deepManagedFields';

/** Field 3 (status), length 5, and nothing after: the decoder stops there. */
const CUT_SHORT = Uint8Array.of(0x1a, 0x05);

export class PodFaults {
  private constructor(
    private readonly byUid: ReadonlyMap<string, Fault>,
    private readonly firstUid: string,
    private readonly managedFieldsDepth = 0,
  ) {}

  private deepFields: PodObject | undefined;

  /** Picks the faulty pods among `uids` (sorted, as served); throws when there are too few pods. */
  static choose(uids: readonly string[], counts: PodFaultCounts): PodFaults {
    const wanted: Fault[] = [
      ...Array<Fault>(counts.undecodable ?? 0).fill('undecodable'),
      ...Array<Fault>(counts.duplicateUids ?? 0).fill('duplicateUid'),
      ...Array<Fault>(counts.emptyUids ?? 0).fill('emptyUid'),
      ...Array<Fault>(counts.managedFieldsDepth ? 1 : 0).fill('deepManagedFields'),
    ];
    if (wanted.length > 0 && 2 * wanted.length > uids.length) {
      throw new RangeError(`${wanted.length} faulty pods need at least ${2 * wanted.length} pods, so that good pods sit between them`);
    }
    return new PodFaults(new Map(wanted.map((fault, i) => [uids[2 * i + 1]!, fault])), uids[0] ?? '', counts.managedFieldsDepth);
  }

  get size(): number {
    return this.byUid.size;
  }

  /**
   * The pod's bytes as served: encoded, then broken when the pod was chosen. A deletion carries only the
   * pod's identity, so a pod that does not decode is deleted with bytes that do.
   */
  encode(uid: string, pod: PodTree, deletion = false): Uint8Array {
    const fault = this.byUid.get(uid);
    if (fault === undefined || (fault === 'undecodable' && deletion)) return encodePod(pod);
    if (fault === 'undecodable') {
      const bytes = encodePod(pod);
      const out = new Uint8Array(bytes.length + CUT_SHORT.length);
      out.set(bytes);
      out.set(CUT_SHORT, bytes.length);
      return out;
    }
    if (fault === 'deepManagedFields') {
      if (deletion) return encodePod(pod);
      const managedFields = [{ manager: 'nodescope-sim', operation: 'Update', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: this.nestedFields() }];
      return encodePod({ ...pod, metadata: { ...(pod.metadata as PodObject), managedFields } });
    }
    const metadata = { ...(pod.metadata as PodObject), uid: fault === 'emptyUid' ? '' : this.firstUid };
    return encodePod({ ...pod, metadata });
  }

  /**
   * The pod's `/pods` item (JSON with status last) as served: a pod chosen not to decode has a status of
   * the wrong type there, as a buggy kubelet might send (name and uid still read). The other faults are
   * the Pods API's only.
   */
  jsonItem(uid: string, item: string): string {
    if (this.byUid.get(uid) !== 'undecodable') return item;
    // The pod's status object: the conditions' "status" values are strings.
    const status = item.lastIndexOf(',"status":{');
    return `${status < 0 ? item.slice(0, -1) : item.slice(0, status)},"status":"cut short"}`;
  }

  /** `{"f:spec":{"f:spec":...{}}}`, managedFieldsDepth levels, built once and without recursion. */
  private nestedFields(): PodObject {
    if (!this.deepFields) {
      let value: PodObject = {};
      for (let i = 1; i < this.managedFieldsDepth; i++) value = { 'f:spec': value };
      this.deepFields = value;
    }
    return this.deepFields;
  }
}
