/**
 * The Pods API's own messages written with protobufjs from proto/kubelet, for tests: an encoder independent
 * of the hand framing the simulator uses (pods-api-framing.ts) and of the readers in pods-api-messages.ts.
 */
import type protobuf from 'protobufjs';
import { loadProtoRoot } from '../../proto/proto-files';
import { EVENT_TYPES, type WatchEventType } from '../pods-api-messages';

let root: protobuf.Root | undefined;
function shipped(name: string): protobuf.Type {
  root ??= loadProtoRoot(['kubelet/pods/v1alpha1/api.proto']);
  return root.lookupType(`v1alpha1.${name}`);
}

export function writeListPodsResponse(pods: Uint8Array[]): Uint8Array {
  const type = shipped('ListPodsResponse');
  return type.encode(type.create({ pods })).finish();
}

export function writeWatchPodsEvent(type: WatchEventType, pod?: Uint8Array): Uint8Array {
  const t = shipped('WatchPodsEvent');
  return t.encode(t.create({ type: EVENT_TYPES.indexOf(type), pod: pod ?? new Uint8Array() })).finish();
}
