/**
 * The Pods API's own messages (both shapes), read and written with protobufjs from proto/kubelet.
 * Pods stay bytes here: they are decoded by app/pod/decode.ts, which keeps what our schema does not know.
 */
import type protobuf from 'protobufjs';
import { loadProtoRoot } from '../schema/proto-files';

export const EVENT_TYPES = ['UNSPECIFIED', 'ADDED', 'MODIFIED', 'DELETED', 'INITIAL_SYNC_COMPLETE'] as const;
export type WatchEventType = (typeof EVENT_TYPES)[number];

let root: protobuf.Root | undefined;
function shipped(name: string): protobuf.Type {
  root ??= loadProtoRoot(['kubelet/pods/v1alpha1/api.proto']);
  return root.lookupType(`v1alpha1.${name}`);
}

/** ListPodsResponse (shipped) and PodListResponse (documented) are the same on the wire: pods = 1. */
export function readListPodsResponse(bytes: Uint8Array): Uint8Array[] {
  return (shipped('ListPodsResponse').decode(bytes) as unknown as { pods: Uint8Array[] }).pods;
}

export function readGetPodResponse(bytes: Uint8Array): Uint8Array {
  return (shipped('GetPodResponse').decode(bytes) as unknown as { pod: Uint8Array }).pod;
}

export function readWatchPodsEvent(bytes: Uint8Array): { type: WatchEventType; pod: Uint8Array } {
  const ev = shipped('WatchPodsEvent').decode(bytes) as unknown as { type: number; pod: Uint8Array };
  return { type: EVENT_TYPES[ev.type] ?? 'UNSPECIFIED', pod: ev.pod };
}

export function writeListPodsResponse(pods: Uint8Array[]): Uint8Array {
  const type = shipped('ListPodsResponse');
  return type.encode(type.create({ pods })).finish();
}

export function writeWatchPodsEvent(type: WatchEventType, pod?: Uint8Array): Uint8Array {
  const t = shipped('WatchPodsEvent');
  return t.encode(t.create({ type: EVENT_TYPES.indexOf(type), pod: pod ?? new Uint8Array() })).finish();
}
