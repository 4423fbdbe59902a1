/**
 * The PodResources API (proto/kubelet/podresources/v1/api.proto) as typed messages and grpc-js method
 * definitions, shared by the client and the simulated kubelet. Messages are plain objects with the
 * proto's field names; int64 CPU IDs and uint64 sizes become numbers (they fit: CPU IDs are small and
 * memory sizes stay far below 2^53).
 */
import type { MethodDefinition } from '@grpc/grpc-js';
import type protobuf from 'protobufjs';
import { loadProtoRoot } from '../proto/proto-files';

export interface TopologyInfo {
  nodes: { ID: number }[];
}

export interface ContainerDevices {
  resource_name: string;
  device_ids: string[];
  topology?: TopologyInfo;
}

export interface ContainerMemory {
  memory_type: string;
  size: number;
  topology?: TopologyInfo;
}

export interface DynamicResource {
  claim_name: string;
  claim_namespace: string;
  claim_resources: { cdi_devices: { name: string }[]; driver_name: string; pool_name: string; device_name: string }[];
}

export interface ContainerResources {
  name: string;
  devices: ContainerDevices[];
  cpu_ids: number[];
  memory: ContainerMemory[];
  dynamic_resources: DynamicResource[];
}

export interface PodResources {
  name: string;
  namespace: string;
  containers: ContainerResources[];
}

export interface ListPodResourcesResponse {
  pod_resources: PodResources[];
}

export interface AllocatableResourcesResponse {
  devices: ContainerDevices[];
  cpu_ids: number[];
  memory: ContainerMemory[];
}

export interface GetPodResourcesRequest {
  pod_name: string;
  pod_namespace: string;
}

export interface GetPodResourcesResponse {
  pod_resources?: PodResources;
}

export { POD_RESOURCES_SOCKET } from './pod-resources-socket';

const SERVICE = '/v1.PodResourcesLister';

let root: protobuf.Root | undefined;
function type(name: string): protobuf.Type {
  return (root ??= loadProtoRoot(['kubelet/podresources/v1/api.proto'])).lookupType(`v1.${name}`);
}

/** Decodes with every repeated field present (empty when absent) and 64-bit numbers as numbers. */
const decoder = <T>(name: string) => (bytes: Buffer): T =>
  type(name).toObject(type(name).decode(bytes), { longs: Number, arrays: true, defaults: true }) as T;
const encoder = <T>(name: string) => (message: T): Buffer => Buffer.from(type(name).encode(type(name).fromObject(message as object)).finish());

function method<Req, Res>(name: string, req: string, res: string): MethodDefinition<Req, Res> {
  return {
    path: `${SERVICE}/${name}`,
    requestStream: false,
    responseStream: false,
    requestSerialize: encoder<Req>(req),
    requestDeserialize: decoder<Req>(req),
    responseSerialize: encoder<Res>(res),
    responseDeserialize: decoder<Res>(res),
  };
}

export const podResourcesMethods = {
  List: method<Record<string, never>, ListPodResourcesResponse>('List', 'ListPodResourcesRequest', 'ListPodResourcesResponse'),
  GetAllocatableResources: method<Record<string, never>, AllocatableResourcesResponse>('GetAllocatableResources', 'AllocatableResourcesRequest', 'AllocatableResourcesResponse'),
  Get: method<GetPodResourcesRequest, GetPodResourcesResponse>('Get', 'GetPodResourcesRequest', 'GetPodResourcesResponse'),
};
