/**
 * The kubelet's `/pods` answer (a v1 PodList in JSON) -> pods as the Pods API path holds them: each item
 * converted by the JSON pod reader (app/snapshot/pod-from-json.ts), encoded as the kubelet would send it
 * over the Pods API, and read back like a received pod, so printing, masks and diffs are the same code.
 */
import { KubeletError } from '../kubelet/kubelet-error';
import { podReader, type ReceivedPod } from '../kubelet/received-pod';
import type { FieldMask } from '../mask/field-mask';
import { encodePod } from '../pod/encode';
import type { PodValue } from '../pod/pod-tree';
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

function convert(value: PodValue, where: string): { trees: PodValue[]; unknownKeys: string[] } {
  const unknownKeys: string[] = [];
  const trees = items(value, where).map((item, i) => {
    const { pod, unknownKeys: keys } = podFromJson(item);
    unknownKeys.push(...keys.map((k) => `items[${i}].${k}`));
    return pod;
  });
  return { trees, unknownKeys };
}

export interface RestPodList {
  pods: ReceivedPod[];
  /** Each pod as the Pods API would have sent it (pods[i]'s bytes): what exports print. */
  bytes: Uint8Array[];
  /** JSON keys this version does not know (a newer kubelet); they are not carried into the pods. */
  unknownKeys: string[];
  maskHonoured: boolean | undefined;
}

export function readRestPodList(body: Buffer, where: string, mask: FieldMask | undefined): RestPodList {
  const text = body.toString('utf8');
  let converted;
  try {
    try {
      converted = convert(JSON.parse(text) as PodValue, where);
    } catch (err) {
      // An integer beyond 2^53 was rounded by JSON.parse: parse it again exactly.
      if (!(err instanceof InexactNumber)) throw err;
      converted = convert(parseExactJson(text, MAX_DEPTH), where);
    }
  } catch (err) {
    if (err instanceof KubeletError) throw err;
    const detail = err instanceof PodJsonError ? `a pod does not fit the pod schema at ${err.path}: ${err.problem}` : (err as Error).message;
    throw new KubeletError('INTERNAL', `${where} answered pods Nodescope cannot read: ${detail}`, 'Report this with the kubelet version; the Pods API (--api auto) may still work.', { cause: err });
  }
  const reader = podReader(mask);
  const bytes = converted.trees.map((tree) => encodePod(tree as never));
  const pods = bytes.map((b, i) => reader.read(b, `/pods items[${i}]`));
  return { pods, bytes, unknownKeys: converted.unknownKeys, maskHonoured: mask ? false : undefined };
}
