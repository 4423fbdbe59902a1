// The Pods API's messages around pods that are already encoded, framed by hand (the simulator's answers,
// and the client's GetPod request): each is a few tag and length bytes in front of cached pod bytes. A 5,000-pod watch replay must be quicker
// than 100 churn events (or the watcher's buffer overflows before it is done), and protobufjs's
// general writer costs about 8 µs a message where this costs under 1.
// Field numbers (proto/kubelet): ListPodsResponse/PodListResponse pods = 1; GetPodResponse,
// PodGetResponse and PodWatchResponse pod = 1; WatchPodsEvent type = 1 (enum), pod = 2.
import { EVENT_TYPES, type WatchEventType } from './pods-api-messages';

const WIRE_VARINT = 0;
const WIRE_LEN = 2;

function varintSize(n: number): number {
  let size = 1;
  while (n >= 0x80) {
    n = Math.floor(n / 128);
    size++;
  }
  return size;
}

function writeVarint(out: Uint8Array, at: number, n: number): number {
  while (n >= 0x80) {
    out[at++] = (n & 0x7f) | 0x80;
    n = Math.floor(n / 128);
  }
  out[at++] = n;
  return at;
}

/** Size of `field` holding `bytes` (length-delimited), tag and length included. */
function bytesFieldSize(bytes: Uint8Array): number {
  return 1 + varintSize(bytes.length) + bytes.length;
}

function writeBytesField(out: Uint8Array, at: number, field: number, bytes: Uint8Array): number {
  out[at++] = (field << 3) | WIRE_LEN;
  at = writeVarint(out, at, bytes.length);
  out.set(bytes, at);
  return at + bytes.length;
}

/** ListPodsResponse (shipped) or PodListResponse (documented): `repeated pods = 1`. */
export function podListMessage(pods: readonly Uint8Array[]): Uint8Array {
  let size = 0;
  for (const pod of pods) size += bytesFieldSize(pod);
  const out = Buffer.allocUnsafe(size);
  let at = 0;
  for (const pod of pods) at = writeBytesField(out, at, 1, pod);
  return out;
}

/** GetPodResponse, PodGetResponse or PodWatchResponse: `pod = 1`. */
export function singlePodMessage(pod: Uint8Array): Uint8Array {
  const out = Buffer.allocUnsafe(bytesFieldSize(pod));
  writeBytesField(out, 0, 1, pod);
  return out;
}

/** The client's GetPodRequest or PodGetRequest: `string podUID = 1`, framed as a pod is in a GetPodResponse. */
export function getPodRequestMessage(uid: string): Uint8Array {
  return singlePodMessage(Buffer.from(uid));
}

/** WatchPodsEvent: `type = 1`, and `pod = 2` unless there is none (INITIAL_SYNC_COMPLETE). */
export function watchEventMessage(type: WatchEventType, pod?: Uint8Array): Uint8Array {
  const number = EVENT_TYPES.indexOf(type);
  // proto3 leaves out zero values and empty bytes, as Go's marshaller does.
  const typeSize = number === 0 ? 0 : 2;
  const podSize = pod && pod.length > 0 ? bytesFieldSize(pod) : 0;
  const out = Buffer.allocUnsafe(typeSize + podSize);
  if (typeSize > 0) {
    out[0] = (1 << 3) | WIRE_VARINT;
    out[1] = number;
  }
  if (podSize > 0) writeBytesField(out, typeSize, 2, pod!);
  return out;
}
