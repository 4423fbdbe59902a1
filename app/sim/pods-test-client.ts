// A bare grpc-js client for the simulator's tests, in either wire shape, decoding pods with decodePod.
import * as grpc from '@grpc/grpc-js';
import protobuf from 'protobufjs';
import { readGetPodResponse, readListPodsResponse, readWatchPodsEvent } from '../kubelet/pods-api-messages';
import { decodePod } from '../pod/decode';
import type { PodTree } from '../pod/pod-tree';
import { type PodsApiShape, servicePrefix } from './pods-api-services';

export interface WatchMessage {
  /** Shipped shape: the event type name; documented shape: undefined (its watch has none). */
  type: string | undefined;
  pod: PodTree | undefined;
}

export interface TestPodsClient {
  list(metadata?: grpc.Metadata): Promise<PodTree[]>;
  get(uid: string, metadata?: grpc.Metadata): Promise<PodTree>;
  watch(metadata?: grpc.Metadata): grpc.ClientReadableStream<WatchMessage>;
  close(): void;
}

type Unary = (req: unknown, md: grpc.Metadata, cb: (err: grpc.ServiceError | null, res?: unknown) => void) => void;
type Stream = (req: unknown, md: grpc.Metadata) => grpc.ClientReadableStream<WatchMessage>;

const pod = (bytes: Uint8Array): PodTree | undefined => (bytes.length === 0 ? undefined : decodePod(bytes).pod);

export function podsClient(socketPath: string, shape: PodsApiShape): TestPodsClient {
  const method = (name: string, responseStream: boolean, serialize: (req: unknown) => Buffer, deserialize: (bytes: Buffer) => unknown) => ({
    path: `${servicePrefix[shape]}/${name}`,
    requestStream: false,
    responseStream,
    requestSerialize: serialize,
    requestDeserialize: (bytes: Buffer) => bytes,
    responseSerialize: (value: unknown) => value as Buffer,
    responseDeserialize: deserialize,
  });
  const empty = () => Buffer.alloc(0);
  const getRequest = (req: unknown) => Buffer.from(protobuf.Writer.create().uint32(10).string(req as string).finish());
  const watchMessage = (bytes: Buffer): WatchMessage => {
    if (shape === 'documented') return { type: undefined, pod: pod(readGetPodResponse(bytes)) };
    const event = readWatchPodsEvent(bytes);
    return { type: event.type, pod: pod(event.pod) };
  };
  const Client = grpc.makeGenericClientConstructor(
    {
      ListPods: method('ListPods', false, empty, (b) => readListPodsResponse(b).map((p) => pod(p)!)),
      GetPod: method('GetPod', false, getRequest, (b) => pod(readGetPodResponse(b))),
      WatchPods: method('WatchPods', true, empty, watchMessage),
    },
    'Pods',
  );
  const client = new Client(`unix:${socketPath}`, grpc.credentials.createInsecure(), {
    // 5,000 pods are ~15 MB: far above grpc-js's default 4 MB receive limit.
    'grpc.max_receive_message_length': -1,
    // Each client its own connection, as separate processes have: a stalled stream then cannot
    // hold up another client's through shared HTTP/2 flow control.
    'grpc.use_local_subchannel_pool': 1,
  }) as unknown as grpc.Client & Record<'ListPods' | 'GetPod', Unary> & { WatchPods: Stream };
  const call = <T>(fn: Unary, req: unknown, md: grpc.Metadata) =>
    new Promise<T>((resolve, reject) => fn.call(client, req, md, (err, res) => (err ? reject(err) : resolve(res as T))));
  return {
    list: (md = new grpc.Metadata()) => call<PodTree[]>(client.ListPods, {}, md),
    get: (uid, md = new grpc.Metadata()) => call<PodTree>(client.GetPod, uid, md),
    watch: (md = new grpc.Metadata()) => client.WatchPods.call(client, {}, md),
    close: () => client.close(),
  };
}
