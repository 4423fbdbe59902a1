/**
 * The kubelet's `/pods` answer (a v1 PodList in JSON) -> pods as the Pods API path holds them: each item
 * converted by the JSON pod reader (app/snapshot/pod-from-json.ts), encoded as the kubelet would send it
 * over the Pods API, and read back like a received pod, so printing, masks and diffs are the same code.
 */
import { KubeletError } from '../kubelet/kubelet-error';
import { podReader, type ReceivedPod } from '../kubelet/received-pod';
import type { FieldMask } from '../mask/field-mask';
import { PodDecodeError, podLabel } from '../pod/decode';
import { encodePod } from '../pod/encode';
import type { PodObject, PodValue } from '../pod/pod-tree';
import { parseExactJson } from '../snapshot/exact-json';
import { InexactNumber, PodJsonError, podFromJson } from '../snapshot/pod-from-json';

const MAX_DEPTH = 64;

function items(value: PodValue, where: string): PodValue[] {
  const list = typeof value === 'object' && value !== null && !Array.isArray(value) ? value : undefined;
  if (!list || list.kind !== 'PodList' || !Array.isArray(list.items)) {
    throw new KubeletError('INTERNAL', `${where} did not answer with a PodList`, 'Check that the port is the kubelet (10250/10255) and not another service.');
  }
  return list.items;
}

/** Where a pod of the list is named in messages, by its place in `items`. */
const itemLabel = (i: number) => `/pods items[${i}]`;

/**
 * An item that does not fit the pod schema (a newer or buggy kubelet), named as far as its JSON tells:
 * namespace/name and uid when they are strings, and always its place in the list, so the operator can
 * find it (kubectl get pod) while the other pods are shown.
 */
function misfit(item: PodValue, i: number, err: PodJsonError): PodDecodeError {
  const pod = typeof item === 'object' && item !== null && !Array.isArray(item) ? item : {};
  const uid = (pod.metadata as PodObject | undefined)?.uid;
  return new PodDecodeError(podLabel(pod, itemLabel(i)), undefined, err.path, `does not fit the pod schema: ${err.problem}`, itemLabel(i), typeof uid === 'string' && uid ? uid : undefined);
}

interface Converted {
  /** The items that fit, with their place in `items`. */
  fitting: { tree: PodValue; index: number }[];
  undecodable: PodDecodeError[];
  unknownKeys: string[];
}

function convert(value: PodValue, where: string, exact: boolean): Converted {
  const out: Converted = { fitting: [], undecodable: [], unknownKeys: [] };
  items(value, where).forEach((item, index) => {
    try {
      const { pod, unknownKeys } = podFromJson(item, { exact });
      out.unknownKeys.push(...unknownKeys.map((k) => `items[${index}].${k}`));
      out.fitting.push({ tree: pod, index });
    } catch (err) {
      // One pod that does not fit must not hide the others: it is named and left out, as the Pods API path does.
      if (!(err instanceof PodJsonError)) throw err;
      out.undecodable.push(misfit(item, index, err));
    }
  });
  return out;
}

export interface RestPodList {
  pods: ReceivedPod[];
  /** Each pod as the Pods API would have sent it (pods[i]'s bytes): what exports print. */
  bytes: Uint8Array[];
  /** Items that do not fit the pod schema: left out of `pods` and `bytes`, each named. */
  undecodable: PodDecodeError[];
  /** JSON keys this version does not know (a newer kubelet); they are not carried into the pods. */
  unknownKeys: string[];
  maskHonoured: boolean | undefined;
}

export function readRestPodList(body: Buffer, where: string, mask: FieldMask | undefined): RestPodList {
  const text = body.toString('utf8');
  let converted;
  try {
    try {
      converted = convert(JSON.parse(text) as PodValue, where, false);
    } catch (err) {
      // An integer beyond 2^53 was rounded by JSON.parse: parse it again exactly.
      if (!(err instanceof InexactNumber)) throw err;
      converted = convert(parseExactJson(text, MAX_DEPTH), where, true);
    }
  } catch (err) {
    if (err instanceof KubeletError) throw err;
    throw new KubeletError('INTERNAL', `${where} did not answer with JSON Nodescope can read: ${(err as Error).message}`, 'Check that the port is the kubelet (10250/10255) and not another service; if it is, report this with the kubelet version (the Pods API, --api auto, may still work).', { cause: err });
  }
  const reader = podReader(mask);
  const bytes = converted.fitting.map(({ tree }) => encodePod(tree as never));
  const pods = bytes.map((b, i) => reader.read(b, itemLabel(converted.fitting[i]!.index)));
  return { pods, bytes, undecodable: converted.undecodable, unknownKeys: converted.unknownKeys, maskHonoured: mask ? false : undefined };
}
