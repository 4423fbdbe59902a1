/**
 * A `.pb` pod file: one pod's raw bytes (Go's v1.Pod.Marshal(), as `nodescope decode` reads) or a saved
 * ListPodsResponse. Both start with field 1 (a pod's metadata, a list's first pod), so the file is a list
 * when every top-level field is field 1 and each of those decodes as a pod; otherwise it is one pod.
 */
import { decodePod, PodDecodeError } from '../pod/decode';
import type { DecodedPod, PodObject } from '../pod/pod-tree';
import { WireFormatError, WireReader } from '../pod/wire-reader';

export interface ProtobufPods {
  format: 'pod-pb' | 'list-pods-response-pb';
  pods: DecodedPod[];
}

/** The payloads of the top-level fields if all are field 1, length-delimited; undefined otherwise. */
function listEntries(bytes: Uint8Array): Uint8Array[] | undefined {
  const r = new WireReader(bytes);
  const entries: Uint8Array[] = [];
  try {
    while (r.pos < bytes.length) {
      if (r.uint32() !== 0x0a) return undefined;
      const end = r.lengthDelimited();
      entries.push(bytes.subarray(r.pos, end));
      r.pos = end;
    }
  } catch (err) {
    if (err instanceof WireFormatError) return undefined;
    throw err;
  }
  return entries;
}

/** A single pod whose only field is its metadata also reads as a one-entry list; its "pod" is then metadata bytes, which do not decode as a pod with a name or uid. */
function looksLikePod(bytes: Uint8Array): boolean {
  try {
    const meta = decodePod(bytes).pod.metadata as PodObject | undefined;
    return typeof meta?.uid === 'string' || typeof meta?.name === 'string';
  } catch (err) {
    if (err instanceof PodDecodeError) return false;
    throw err;
  }
}

/** Decodes the file's pods; throws PodDecodeError (with its byte offset) when it is neither form. */
export function readPodProtobuf(bytes: Uint8Array, name: string): ProtobufPods {
  const entries = listEntries(bytes);
  if (entries && entries.length > 0 && looksLikePod(entries[0]!)) {
    // A list it is: a pod of it that does not decode is reported as that pod, with its index.
    return { format: 'list-pods-response-pb', pods: entries.map((e, i) => decodePod(e, `${name} pods[${i}]`)) };
  }
  return { format: 'pod-pb', pods: [decodePod(bytes, name)] };
}
