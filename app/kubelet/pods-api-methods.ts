/**
 * The Pods API's three methods for a grpc-js client, in either wire shape. Responses stay raw bytes
 * (parsed by pods-api-messages), so pods reach decodePod untouched and unknown fields survive.
 */
import type { MethodDefinition } from '@grpc/grpc-js';
import { getPodRequestMessage } from './pods-api-framing';

export type ApiShape = 'shipped' | 'documented';
export const API_SHAPES: readonly ApiShape[] = ['shipped', 'documented'];

export const SERVICE_PREFIX: Record<ApiShape, string> = {
  shipped: '/v1alpha1.Pods',
  documented: '/Pods',
};

/**
 * GetPodRequest and PodGetRequest: `string podUID = 1`, framed by hand (protobufjs's writer would cost every
 * CLI start the loading of protobufjs). ListPods and WatchPods requests are empty.
 */
const writeGetPodRequest = (uid: string): Buffer => Buffer.from(getPodRequestMessage(uid));
const empty = (): Buffer => Buffer.alloc(0);
const raw = (bytes: Buffer): Buffer => bytes;

function method<Req>(path: string, responseStream: boolean, serialize: (req: Req) => Buffer): MethodDefinition<Req, Buffer> {
  return {
    path,
    requestStream: false,
    responseStream,
    requestSerialize: serialize,
    requestDeserialize: raw as never,
    responseSerialize: raw,
    responseDeserialize: raw,
  };
}

export function podsApiMethods(shape: ApiShape) {
  const prefix = SERVICE_PREFIX[shape];
  return {
    ListPods: method<void>(`${prefix}/ListPods`, false, empty),
    GetPod: method<string>(`${prefix}/GetPod`, false, writeGetPodRequest),
    WatchPods: method<void>(`${prefix}/WatchPods`, true, empty),
  };
}
