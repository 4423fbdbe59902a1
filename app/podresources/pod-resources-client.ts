/**
 * The PodResources API client, on one HTTP/2 connection (app/grpc) to a socket on this machine or over a
 * stream the SSH transport opens to the node's root-only /var/lib/kubelet/pod-resources/kubelet.sock.
 */
import type { Duplex } from 'node:stream';
import { createGrpcConnection } from '../grpc/connection';
import { Status, type GrpcStatusError } from '../grpc/grpc-error';
import { localSocketDialer } from '../grpc/stream-dialer';
import { unaryCall } from '../grpc/unary-call';
import { DEFAULT_CALL_TIMEOUT_MS } from '../kubelet/call-timeout';
import { KubeletError, toKubeletError } from '../kubelet/kubelet-error';
import { MAX_MESSAGE_BYTES } from '../kubelet/message-limit';
import { podResourcesMethods, type AllocatableResourcesResponse, type PodResources } from './pod-resources-api';

export interface PodResourcesClient {
  list(): Promise<PodResources[]>;
  allocatable(): Promise<AllocatableResourcesResponse>;
  get(namespace: string, name: string): Promise<PodResources>;
  close(): void;
}

export interface PodResourcesClientOptions {
  /** A socket on this machine (`unix:///path` or a bare path), or what opens a byte stream to the node's socket (openKubeletTransport's `open`). */
  target: string | (() => Promise<Duplex>);
  /** The socket on the node, for messages. */
  socketPath: string;
  transportError?: () => Error | null;
}

export function createPodResourcesClient(o: PodResourcesClientOptions): PodResourcesClient {
  const connection = createGrpcConnection({ dial: typeof o.target === 'string' ? localSocketDialer(o.target) : o.target });
  const call = async <Req, Res>(name: keyof typeof podResourcesMethods, request: Req): Promise<Res> => {
    const m = podResourcesMethods[name] as unknown as { path: string; requestSerialize: (r: Req) => Buffer; responseDeserialize: (b: Buffer) => Res };
    try {
      return m.responseDeserialize(await unaryCall(connection, m.path, m.requestSerialize(request), { timeoutMs: DEFAULT_CALL_TIMEOUT_MS, maxBytes: MAX_MESSAGE_BYTES }));
    } catch (err) {
      const e = err as Partial<GrpcStatusError>;
      if (e.code === Status.UNIMPLEMENTED) {
        throw new KubeletError('UNIMPLEMENTED', `The kubelet does not serve PodResources ${name} on ${o.socketPath}: ${e.details}`,
          name === 'Get' ? 'Get needs Kubernetes 1.27+ (KubeletPodResourcesGet); use List.' : 'PodResources v1 needs Kubernetes 1.20+; GetAllocatableResources 1.23+. Check the socket path (--socket).');
      }
      throw toKubeletError(err, { api: 'PodResources', method: name, socketPath: o.socketPath, transportError: o.transportError ?? (() => null) });
    }
  };
  return {
    list: async () => (await call<object, { pod_resources: PodResources[] }>('List', {})).pod_resources,
    allocatable: () => call<object, AllocatableResourcesResponse>('GetAllocatableResources', {}),
    async get(namespace, name) {
      const res = await call<object, { pod_resources?: PodResources }>('Get', { pod_name: name, pod_namespace: namespace });
      if (!res.pod_resources) throw new KubeletError('NOT_FOUND', `No pod ${namespace}/${name} on this node`, "List the node's pods to find it.");
      return res.pod_resources;
    },
    close: () => connection.close(),
  };
}
