// One Pods API server on one UNIX socket, in one wire shape, behaving like the kubelet's: the
// initializing window, the shared List/Get rate limit, sorted lists, watch replay and slow-watcher drops,
// and (documented shape only) field masks from request metadata.
import { rm } from 'node:fs/promises';
import {
  Server,
  ServerCredentials,
  status as Status,
  type sendUnaryData,
  type ServerUnaryCall,
  type ServerWritableStream,
} from '@grpc/grpc-js';
import { FieldMaskError, type FieldMask } from '../mask/field-mask';
import { FIELD_MASK_METADATA_KEY, fieldMaskFromMetadata } from '../kubelet/mask-metadata';
import type { PodObject, PodTree } from '../pod/pod-tree';
import type { EncodedPods } from './encoded-pods';
import { podTime } from './pod-time';
import type { PodEvent, PodStore } from './pod-store';
import { podListMessage, singlePodMessage, watchEventMessage } from '../kubelet/pods-api-framing';
import { type GetPodRequest, type PodsApiShape, podsServiceDefinition } from './pods-api-services';
import { listenPrivately, prepareSocketPath } from './socket-file';
import { TokenBucket } from './token-bucket';
import { WatchPump } from './watch-pump';

export type PodsMethod = 'ListPods' | 'GetPod' | 'WatchPods';

/** Like the kubelet's kubelet_pod_requests_*_total and kubelet_pod_watch_events_dropped_total. */
export interface EndpointStats {
  api: PodsApiShape;
  socketPath: string;
  /** Finished requests by method and gRPC status name (`OK`, `RESOURCE_EXHAUSTED`, ...). */
  requests: Record<PodsMethod, Record<string, number>>;
  watchEventsDropped: number;
  activeWatches: number;
}

export interface EndpointOptions {
  api: PodsApiShape;
  socketPath: string;
  store: PodStore;
  encoded: EncodedPods;
  /** While this returns true every call fails with FAILED_PRECONDITION. */
  initializing: () => boolean;
  rateLimit: { qps: number; burst: number };
  watchBufferLimit: number;
  /** Drop slow watchers more harshly than the kubelet (watch-pump.ts). */
  strictWatchBuffer: boolean;
}

class CallError extends Error {
  constructor(
    readonly code: Status,
    message: string,
  ) {
    super(message);
  }
}

/** Anything but a deliberate CallError is a pod the encoder refused: the kubelet's INTERNAL. */
function toCallError(err: unknown): CallError {
  return err instanceof CallError ? err : new CallError(Status.INTERNAL, `failed to marshal pod: ${(err as Error).message}`);
}

export class PodsEndpoint {
  private readonly server = new Server({ 'grpc.max_send_message_length': -1 });
  private readonly limiter: TokenBucket;
  private readonly pumps = new Set<WatchPump>();
  private readonly requests: EndpointStats['requests'] = { ListPods: {}, GetPod: {}, WatchPods: {} };
  private dropped = 0;
  private lastEvent: { event: PodEvent; maskKey: string; bytes: Uint8Array } | undefined;

  private constructor(private readonly options: EndpointOptions) {
    this.limiter = new TokenBucket(options.rateLimit.qps, options.rateLimit.burst);
    this.server.addService(podsServiceDefinition(options.api), {
      ListPods: (call: ServerUnaryCall<unknown, Uint8Array>, done: sendUnaryData<Uint8Array>) => this.unary('ListPods', call, done, (mask) => this.list(mask)),
      GetPod: (call: ServerUnaryCall<GetPodRequest, Uint8Array>, done: sendUnaryData<Uint8Array>) => this.unary('GetPod', call, done, (mask) => this.get(call.request.podUID, mask)),
      WatchPods: (call: ServerWritableStream<unknown, Uint8Array>) => this.watch(call),
    });
  }

  /** Binds the socket (mode 0600, like the kubelet's) and starts serving. */
  static async start(options: EndpointOptions): Promise<PodsEndpoint> {
    await prepareSocketPath(options.socketPath);
    const endpoint = new PodsEndpoint(options);
    try {
      await listenPrivately(options.socketPath, (stagedPath) =>
        new Promise<void>((resolve, reject) => {
          endpoint.server.bindAsync(`unix:${stagedPath}`, ServerCredentials.createInsecure(), (err) => (err ? reject(err) : resolve()));
        }),
      );
    } catch (err) {
      endpoint.server.forceShutdown();
      throw err;
    }
    return endpoint;
  }

  stats(): EndpointStats {
    const requests = Object.fromEntries(Object.entries(this.requests).map(([m, byCode]) => [m, { ...byCode }])) as EndpointStats['requests'];
    return { api: this.options.api, socketPath: this.options.socketPath, requests, watchEventsDropped: this.dropped, activeWatches: this.pumps.size };
  }

  /** Ends every open watch with a status, as a kubelet restarting or going away does. */
  endWatches(code: Status, details: string): void {
    for (const pump of this.pumps) pump.end(code, details);
  }

  /** Ends every watch as a kubelet going away would, stops the server and removes the socket file. */
  async stop(): Promise<void> {
    this.endWatches(Status.UNAVAILABLE, 'kubelet is shutting down');
    await new Promise<void>((resolve) => {
      // Watchers that stopped reading never take their final status: do not wait for them.
      const force = setTimeout(() => this.server.forceShutdown(), 2000);
      this.server.tryShutdown(() => {
        clearTimeout(force);
        resolve();
      });
    });
    await rm(this.options.socketPath, { force: true });
  }

  private count(method: PodsMethod, code: Status): void {
    const name = Status[code] ?? String(code);
    this.requests[method][name] = (this.requests[method][name] ?? 0) + 1;
  }

  /** The checks every call passes first, in the kubelet's order; returns the call's mask, if any. */
  private admit(method: PodsMethod, metadata: { get(key: string): (string | Buffer)[] }): FieldMask | undefined {
    // The limiter is a unary interceptor in the kubelet: it runs before the handler, and not for watches.
    if (method !== 'WatchPods' && !this.limiter.take()) throw new CallError(Status.RESOURCE_EXHAUSTED, 'rejected by rate limit');
    if (this.options.initializing()) throw new CallError(Status.FAILED_PRECONDITION, 'Kubelet is initializing');
    if (this.options.api === 'shipped') return undefined;
    try {
      return fieldMaskFromMetadata(metadata.get(FIELD_MASK_METADATA_KEY));
    } catch (err) {
      if (err instanceof FieldMaskError) throw new CallError(Status.INVALID_ARGUMENT, err.message);
      throw err;
    }
  }

  private unary<Req>(
    method: PodsMethod,
    call: ServerUnaryCall<Req, Uint8Array>,
    done: sendUnaryData<Uint8Array>,
    respond: (mask: FieldMask | undefined) => Uint8Array,
  ): void {
    try {
      const reply = respond(this.admit(method, call.metadata));
      this.count(method, Status.OK);
      done(null, reply);
    } catch (err) {
      const { code, message } = toCallError(err);
      this.count(method, code);
      done({ code, details: message });
    }
  }

  private list(mask: FieldMask | undefined): Uint8Array {
    const { store, encoded } = this.options;
    return podListMessage(store.uids().map((uid) => encoded.bytes(uid, store.entry(uid)!, mask)));
  }

  private get(uid: string, mask: FieldMask | undefined): Uint8Array {
    const entry = this.options.store.entry(uid);
    if (!entry) throw new CallError(Status.NOT_FOUND, `pod with UID ${uid} not found`);
    return singlePodMessage(this.options.encoded.bytes(uid, entry, mask));
  }

  private watch(call: ServerWritableStream<unknown, Uint8Array>): void {
    let mask: FieldMask | undefined;
    try {
      mask = this.admit('WatchPods', call.metadata);
    } catch (err) {
      const { code, message } = toCallError(err);
      this.count('WatchPods', code);
      call.emit('error', { code, details: message });
      return;
    }
    const { store, encoded } = this.options;
    const pump: WatchPump = new WatchPump(call, {
      limit: this.options.watchBufferLimit,
      strict: this.options.strictWatchBuffer,
      onDropped: () => {
        this.dropped++;
        unsubscribe();
      },
      onEnd: (code) => {
        this.pumps.delete(pump);
        unsubscribe();
        this.count('WatchPods', code);
      },
    });
    this.pumps.add(pump);

    // Subscribing and taking the snapshot in one synchronous step: no change falls in between.
    const unsubscribe = store.subscribe((event) => {
      let message: Uint8Array;
      try {
        message = this.liveMessage(event, mask);
      } catch (err) {
        pump.end(Status.INTERNAL, toCallError(err).message);
        return;
      }
      pump.push(message);
    });
    const snapshot = store.uids().map((uid) => [uid, store.entry(uid)!] as const);
    const shipped = this.options.api === 'shipped';
    pump.startReplay(
      (function* () {
        for (const [uid, entry] of snapshot) {
          const pod = encoded.bytes(uid, entry, mask);
          yield shipped ? watchEventMessage('ADDED', pod) : singlePodMessage(pod);
        }
        if (shipped) yield watchEventMessage('INITIAL_SYNC_COMPLETE');
      })(),
    );
  }

  /** A store change as this shape's watch message; made once per change and mask for all watchers. */
  private liveMessage(event: PodEvent, mask: FieldMask | undefined): Uint8Array {
    const maskKey = mask ? mask.paths.join(',') : '';
    if (this.lastEvent && this.lastEvent.event === event && this.lastEvent.maskKey === maskKey) return this.lastEvent.bytes;
    let bytes: Uint8Array;
    if (this.options.api === 'shipped') {
      const pod = event.type === 'DELETED' ? this.options.encoded.deletion(event.uid, event.pod) : this.options.encoded.bytes(event.uid, event, mask);
      bytes = watchEventMessage(event.type, pod);
    } else {
      const pod = event.type === 'DELETED' ? this.options.encoded.deletion(event.uid, documentedTombstone(event)) : this.options.encoded.bytes(event.uid, event, mask);
      bytes = singlePodMessage(pod);
    }
    this.lastEvent = { event, maskKey, bytes };
    return bytes;
  }
}

/**
 * The documented watch has no event type: a removed pod is sent with only its identity and a
 * deletionTimestamp (proto/kubelet/documented/pods.proto). It is not masked, or the client could not
 * tell which pod left.
 */
function documentedTombstone(event: PodEvent): PodTree {
  const meta = event.pod.metadata as PodObject;
  const previousMeta = event.previous?.metadata as PodObject | undefined;
  const deletionTimestamp = (previousMeta?.deletionTimestamp as string | undefined) ?? podTime(Date.now());
  return { metadata: { deletionTimestamp, name: meta.name, namespace: meta.namespace, uid: meta.uid } };
}
