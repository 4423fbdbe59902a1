/**
 * The PodResources API client: grpc-js over a `unix://` target (the SSH transport's private socket to
 * the node's root-only /var/lib/kubelet/pod-resources/kubelet.sock, or a socket on this machine).
 */
import { Client, credentials, Metadata, status as Status, type ServiceError } from '@grpc/grpc-js';
import { KUBELET_CHANNEL_OPTIONS } from '../kubelet/channel-options';
import { KubeletError, toKubeletError } from '../kubelet/kubelet-error';
import { podResourcesMethods, type AllocatableResourcesResponse, type PodResources } from './pod-resources-api';

export interface PodResourcesClient {
  list(): Promise<PodResources[]>;
  allocatable(): Promise<AllocatableResourcesResponse>;
  get(namespace: string, name: string): Promise<PodResources>;
  close(): void;
}

export interface PodResourcesClientOptions {
  /** `unix:///path` or a bare absolute path. */
  target: string;
  /** The socket on the node, for messages. */
  socketPath: string;
  transportError?: () => Error | null;
}

export function createPodResourcesClient(o: PodResourcesClientOptions): PodResourcesClient {
  const client = new Client(o.target.startsWith('/') ? `unix:${o.target}` : o.target, credentials.createInsecure(), KUBELET_CHANNEL_OPTIONS);
  const call = <Req, Res>(name: keyof typeof podResourcesMethods, request: Req): Promise<Res> =>
    new Promise((resolve, reject) => {
      const m = podResourcesMethods[name] as unknown as { path: string; requestSerialize: (r: Req) => Buffer; responseDeserialize: (b: Buffer) => Res };
      client.makeUnaryRequest(m.path, m.requestSerialize, m.responseDeserialize, request, new Metadata(), { deadline: Date.now() + 30_000 }, (err, res) => {
        if (!err && res) return resolve(res);
        const e = err as ServiceError | null;
        if (e?.code === Status.UNIMPLEMENTED) {
          return reject(new KubeletError('UNIMPLEMENTED', `The kubelet does not serve PodResources ${name} on ${o.socketPath}: ${e.details}`,
            name === 'Get' ? 'Get needs Kubernetes 1.27+ (KubeletPodResourcesGet); use List.' : 'PodResources v1 needs Kubernetes 1.20+; GetAllocatableResources 1.23+. Check the socket path (--socket).'));
        }
        reject(toKubeletError(err, { api: 'PodResources', method: name, socketPath: o.socketPath, transportError: o.transportError ?? (() => null) }));
      });
    });
  return {
    list: async () => (await call<object, { pod_resources: PodResources[] }>('List', {})).pod_resources,
    allocatable: () => call<object, AllocatableResourcesResponse>('GetAllocatableResources', {}),
    async get(namespace, name) {
      const res = await call<object, { pod_resources?: PodResources }>('Get', { pod_name: name, pod_namespace: namespace });
      if (!res.pod_resources) throw new KubeletError('NOT_FOUND', `No pod ${namespace}/${name} on this node`, "List the node's pods to find it.");
      return res.pod_resources;
    },
    close: () => client.close(),
  };
}
