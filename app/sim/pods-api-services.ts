// The two wire shapes of the Pods service for grpc-js: the same three methods under `/v1alpha1.Pods`
// (as shipped) or `/Pods` (as documented). Handlers hand over finished message bytes (pods are
// pre-encoded and cached), so responses pass through unchanged; only GetPod's request is parsed.
import type { MethodDefinition, ServiceDefinition } from '@grpc/grpc-js';
import type protobuf from 'protobufjs';
import { loadProtoRoot } from '../proto/proto-files';

export type PodsApiShape = 'shipped' | 'documented';

export const servicePrefix: Record<PodsApiShape, string> = {
  shipped: '/v1alpha1.Pods',
  documented: '/Pods',
};

export interface GetPodRequest {
  podUID: string;
}

let getPodRequest: protobuf.Type | undefined;

/** GetPodRequest (shipped) and PodGetRequest (documented) are the same: `string podUID = 1`. */
function readGetPodRequest(bytes: Buffer): GetPodRequest {
  getPodRequest ??= loadProtoRoot(['kubelet/pods/v1alpha1/api.proto']).lookupType('v1alpha1.GetPodRequest');
  return { podUID: (getPodRequest.decode(bytes) as unknown as GetPodRequest).podUID };
}

const asBuffer = (bytes: Uint8Array): Buffer => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
/** ListPods and WatchPods requests are empty messages; whatever they carry is ignored, like the kubelet does. */
const ignoreRequest = (): Record<string, never> => ({});

function method<Req>(
  path: string,
  responseStream: boolean,
  requestDeserialize: (bytes: Buffer) => Req,
): MethodDefinition<Req, Uint8Array> {
  return {
    path,
    requestStream: false,
    responseStream,
    requestSerialize: () => Buffer.alloc(0),
    requestDeserialize,
    responseSerialize: asBuffer,
    responseDeserialize: (bytes: Buffer) => bytes,
  };
}

export function podsServiceDefinition(shape: PodsApiShape): ServiceDefinition {
  const prefix = servicePrefix[shape];
  return {
    ListPods: method(`${prefix}/ListPods`, false, ignoreRequest),
    GetPod: method(`${prefix}/GetPod`, false, readGetPodRequest),
    WatchPods: method(`${prefix}/WatchPods`, true, ignoreRequest),
  };
}
