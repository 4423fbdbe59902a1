/**
 * The kubelet Pods API client, on one HTTP/2 connection (app/grpc) to a socket on this machine or over a
 * stream the SSH transport opens to the node's socket: GetPod, the watch, and ListPods read as it arrives
 * (list-pods-stream.ts), each call bounded by callTimeoutMs but the watch; both API shapes, field masks sent
 * as metadata and always applied locally, errors mapped to KubeletError with the transport's real cause.
 *
 *   const client = createKubeletClient({ target: transport.open, socketPath, transportError: transport.lastError });
 *   const { pods } = await client.listPods();
 */
import type { Duplex } from 'node:stream';
import { createGrpcConnection } from '../grpc/connection';
import { serverStream, type ServerStreamHandlers } from '../grpc/server-stream';
import { localSocketDialer } from '../grpc/stream-dialer';
import { unaryCall } from '../grpc/unary-call';
import { formatFieldMask, type FieldMask } from '../mask/field-mask';
import { FIELD_MASK_METADATA_KEY } from './mask-metadata';
import { retryWhileBusy, type RetryOptions } from './call-retry';
import { DEFAULT_CALL_TIMEOUT_MS } from './call-timeout';
import { MAX_MESSAGE_BYTES } from './message-limit';
import { EventQueue } from './event-queue';
import { KubeletError, toKubeletError } from './kubelet-error';
import { streamListPods, type ListPodsStreamHandlers } from './list-pods-stream';
import { afterArrivalWork } from '../util/time-slices';
import { readGetPodResponse, readWatchPodsEvent } from './pods-api-messages';
import { getPodRequestMessage } from './pods-api-framing';
import { podsApiMethods, type ApiShape } from './pods-api-methods';
import { podDigest, podReader, wireMask, type HeldPod, type PodReader, type ReceivedPod } from './received-pod';
import { PodDecodeError } from '../pod/decode';

export type ApiChoice = ApiShape | 'auto';
/** Which API a client reads pods from: a Pods API shape, or the kubelet's REST API (app/kubelet-rest). */
export type PodSourceApi = ApiShape | 'rest';

export interface KubeletClientOptions {
  /**
   * A socket on this machine (`unix:///path`, `unix:/path` or a bare path), or what opens a byte stream to
   * the kubelet's socket (openKubeletTransport's `open`: an SSH channel, handed to HTTP/2 as it is).
   */
  target: string | (() => Promise<Duplex>);
  /** The socket on the node, for messages. */
  socketPath: string;
  /** Default 'auto': the shipped shape, or the documented one when the kubelet says UNIMPLEMENTED. */
  api?: ApiChoice;
  mask?: FieldMask;
  /** The transport's real cause behind UNAVAILABLE (openKubeletTransport's lastError). */
  transportError?: () => Error | null;
  /** How unary calls wait out "initializing" and rate limits. */
  retry?: RetryOptions;
  /**
   * How long a call may wait for the kubelet to answer (a GetPod in all; a ListPods to start answering, and
   * again whenever it stops sending in the middle): default DEFAULT_CALL_TIMEOUT_MS. The watch itself is not bounded.
   */
  callTimeoutMs?: number;
  /** The HTTP/2 receive window of each call; default 16 MiB (the benchmark's stock-client baseline sets HTTP/2's 64 KiB). */
  window?: number;
}

/** P: a received pod, or what a PodIntake keeps of it. */
export interface PodList<P extends HeldPod = ReceivedPod> {
  pods: P[];
  /** Pods of the list that do not decode: left out of `pods`, each named (list index, byte offset, uid if read). */
  undecodable: PodDecodeError[];
  api: PodSourceApi;
  /** Whether the kubelet applied the mask itself; undefined without a mask or pods. */
  maskHonoured: boolean | undefined;
}

/**
 * The pods as bytes, and the pods the source could not turn into bytes: a REST `/pods` item that does not
 * fit the pod schema, left out and named. The Pods API hands every pod on as bytes (whoever decodes them
 * finds those that do not decode), so its `undecodable` is empty.
 */
export interface PodBytesList {
  bytes: Uint8Array[];
  undecodable: PodDecodeError[];
}

export interface PodBytesHandlers extends ListPodsStreamHandlers {
  /** A pod the source could not turn into bytes (see PodBytesList): left out, to be named. */
  undecodable(error: PodDecodeError): void;
}

export interface SinglePod {
  pod: ReceivedPod;
  api: PodSourceApi;
  maskHonoured: boolean | undefined;
}

export type WatchMessage<P extends HeldPod = ReceivedPod> =
  | { type: 'ADDED' | 'MODIFIED' | 'DELETED'; pod: P }
  /** An event whose pod does not decode: the watch goes on without it. */
  | { type: 'UNDECODABLE'; error: PodDecodeError }
  /**
   * REST polling: a pod named UNDECODABLE is no longer sent at all (it left /pods while it did not fit),
   * so no deletion will name it. The Pods API deletes such a pod with an event that decodes.
   */
  | { type: 'UNDECODABLE_GONE'; error: PodDecodeError }
  /** Shipped shape only: the replay of existing pods is complete. */
  | { type: 'INITIAL_SYNC_COMPLETE' };

export interface PodStream<P extends HeldPod = ReceivedPod> extends AsyncIterable<WatchMessage<P>> {
  /** 'documented' streams have no end-of-replay marker; the others end their replay with INITIAL_SYNC_COMPLETE. */
  api: PodSourceApi;
  /** Messages received but not yet consumed. */
  backlog(): number;
  maskHonoured(): boolean | undefined;
  /** Ends the stream; the iteration then ends without an error. */
  cancel(): void;
}

/**
 * How a caller that holds pods takes them in. `known`: the pod it holds already with these wire bytes
 * (by podDigest), handed on as it is instead of being decoded again (a re-sync of 30,000 pods then
 * decodes only the pods that changed). `keep`: what it holds of a new pod, taken as soon as the pod is
 * decoded, so a list of 30,000 pods is never 30,000 trees at once; `bytes` are the pod's wire bytes, a
 * view into the message they came in (from a streamed list, valid during the call only): copy what is
 * kept (ownBytes), which also keeps no whole message alive.
 */
export interface PodIntake<K extends HeldPod> {
  known(digest: string): K | undefined;
  keep(pod: ReceivedPod, bytes: Uint8Array): K;
  /** The only fields `keep` reads of the pod's tree: the rest is not decoded (PodReader.read). Default: the whole pod. */
  reads?: FieldMask;
}

/** How one ListPods is made. */
export interface ListPodsCall<K extends HeldPod> {
  waitIfBusy?: boolean;
  intake?: PodIntake<K>;
  /** Told as each pod of the Pods API arrives (an open under the open limit moving on); REST, read whole, tells nothing. */
  arrived?(): void;
}

export interface KubeletClient {
  /** Which shape answers: the configured one, or (auto) found by calling GetPod (see probeShape). */
  detectApiShape(): Promise<PodSourceApi>;
  /**
   * Waits out an initializing kubelet and rate limits (options.retry), unless `waitIfBusy` is false:
   * then they fail at once, for a caller that shows them itself (the documented watch does).
   */
  listPods<K extends HeldPod = ReceivedPod>(call?: ListPodsCall<K>): Promise<PodList<K>>;
  /** The pods' bytes as received, undecoded: the fast path for printing them all (no mask). */
  listPodBytes(): Promise<PodBytesList>;
  /**
   * The same list, each pod handed to `handlers.pod` as it arrives rather than all at the end (export
   * and `-o json` at tens of thousands of pods); resolves with the number of pods handed on. Unmasked only.
   */
  streamPodBytes(handlers: PodBytesHandlers): Promise<number>;
  getPod(uid: string): Promise<SinglePod>;
  /** Fails at once while the kubelet initializes, so the caller can show it (startPodWatch does). */
  watchPods<K extends HeldPod = ReceivedPod>(intake?: PodIntake<K>): Promise<PodStream<K>>;
  close(): void;
}

/** One pod that does not decode must not hide the others: its error is returned to be named, not thrown. */
function readOrError<K extends HeldPod>(reader: PodReader, bytes: Uint8Array, label: string, intake?: PodIntake<K>): K | PodDecodeError {
  const digest = podDigest(bytes);
  const held = intake?.known(digest);
  if (held) return held;
  try {
    return taken(reader.read(bytes, label, digest, intake?.reads), bytes, intake);
  } catch (err) {
    if (err instanceof PodDecodeError) return err;
    throw err;
  }
}

/** A new pod as the caller keeps it: as received without an intake (K is then ReceivedPod). */
export function taken<K extends HeldPod>(pod: ReceivedPod, bytes: Uint8Array, intake: PodIntake<K> | undefined): K {
  return intake ? intake.keep(pod, bytes) : (pod as unknown as K);
}

/** A well-formed UID no pod has (version 4, all zero): GetPod answers NOT_FOUND for it on either shape. */
const SHAPE_PROBE_UID = '00000000-0000-4000-8000-000000000000';

export function createKubeletClient(options: KubeletClientOptions): KubeletClient {
  const connection = createGrpcConnection({
    dial: typeof options.target === 'string' ? localSocketDialer(options.target) : options.target,
    ...(options.window ? { window: options.window } : {}),
  });
  /** The mask asked of the kubelet, as gRPC metadata. */
  const maskMetadata: Record<string, string> = options.mask ? { [FIELD_MASK_METADATA_KEY]: formatFieldMask(wireMask(options.mask)) } : {};
  const streams = new Set<PodStream<HeldPod>>();
  let shape: ApiShape | undefined = options.api === 'auto' || options.api === undefined ? undefined : options.api;

  const fail = (err: unknown, api: ApiShape, method: string) =>
    toKubeletError(err, { api, method, socketPath: options.socketPath, transportError: options.transportError ?? (() => null) });

  const callTimeoutMs = options.callTimeoutMs ?? DEFAULT_CALL_TIMEOUT_MS;
  /** A GetPod: one pod, so the deadline covers the whole call. */
  const getPodCall = (api: ApiShape, uid: string): Promise<Buffer> =>
    unaryCall(connection, podsApiMethods(api).GetPod, getPodRequestMessage(uid), { headers: maskMetadata, timeoutMs: callTimeoutMs, maxBytes: MAX_MESSAGE_BYTES }).catch(
      (err: unknown) => Promise.reject(fail(err, api, 'GetPod')),
    );
  /**
   * A ListPods read as it arrives (list-pods-stream.ts), so that its bound is on silence, not on the whole
   * transfer: a large list over a slow link takes as long as it takes, a kubelet that stops answering fails.
   */
  const listCall = (api: ApiShape, handlers: ListPodsStreamHandlers, consumerError?: () => unknown) =>
    streamListPods(connection, podsApiMethods(api).ListPods, handlers, { metadata: maskMetadata, timeoutMs: callTimeoutMs }).catch((err: unknown) =>
      Promise.reject(consumerError && err === consumerError() ? err : fail(err, api, 'ListPods')),
    );
  // Closing ends the waits for a busy kubelet too: a closed client must not keep the process alive retrying.
  const closing = new AbortController();
  const busyRetry = <T>(call: () => Promise<T>) => retryWhileBusy(call, { ...options.retry, signal: closing.signal });

  /**
   * A list held whole (decoded pods, or their bytes) keeps the bound every other answer has: the largest message
   * Nodescope accepts. Lists handed on pod by pod (streamPodBytes, an intake) are not held whole, so not bound.
   */
  const heldWhole = (bytes: number) => {
    if (bytes <= MAX_MESSAGE_BYTES) return;
    throw new KubeletError('TOO_LARGE',
      `The kubelet's ListPods answer on ${options.socketPath} is ${bytes} bytes, larger than the ${MAX_MESSAGE_BYTES >> 20} MiB Nodescope holds at once; it was not read`,
      'Ask for fewer fields with --mask (the kubelet then sends less), or use export (-o json or ndjson), which hands the pods on one by one at any size.');
  };
  /** Busy answers (initializing, rate limited) come before any pod, so a retry never repeats one. */
  const maybeRetry = <T>(waitIfBusy: boolean, call: () => Promise<T>) => (waitIfBusy ? busyRetry(call) : call());
  const listBytes = async (api: ApiShape): Promise<Uint8Array[]> => {
    const bytes: Uint8Array[] = [];
    // Each pod copied out: the views are valid during the call only.
    await busyRetry(() => {
      bytes.length = 0;
      return listCall(api, { pod: (pod) => bytes.push(Uint8Array.prototype.slice.call(pod)), size: heldWhole });
    });
    return bytes;
  };
  const list = async <K extends HeldPod>(api: ApiShape, { waitIfBusy = true, intake, arrived }: ListPodsCall<K>): Promise<PodList<K>> => {
    const reader = podReader(options.mask);
    const pods: K[] = [];
    const undecodable: PodDecodeError[] = [];
    const read = (bytes: Uint8Array, offset: number) => {
      arrived?.();
      const pod = readOrError(reader, bytes, `ListPods pods[${pods.length + undecodable.length}] at byte ${offset}`, intake);
      if (pod instanceof PodDecodeError) undecodable.push(pod);
      else pods.push(pod);
    };
    // Each pod is decoded (or kept by the intake) as it arrives: the response (~94 MiB at 30,000 pods,
    // as one message) is never held whole.
    // A holder taking many nodes' lists in at once (an intake) reads on only while this turn's budget lasts.
    await maybeRetry(waitIfBusy, () => listCall(api, intake ? { pod: read, wait: afterArrivalWork } : { pod: read, size: heldWhole }));
    return { pods, undecodable, api, maskHonoured: reader.maskHonoured() };
  };

  /**
   * A call (a ListPods, a GetPod, the shape probe) on the shipped path, then on the documented one if that
   * is UNIMPLEMENTED; the shape that answers is kept for every later call.
   */
  const detecting = async <T>(call: (api: ApiShape) => Promise<T>): Promise<T> => {
    if (shape) return call(shape);
    try {
      const result = await call('shipped');
      shape = 'shipped';
      return result;
    } catch (err) {
      if (!(err instanceof KubeletError && err.code === 'UNIMPLEMENTED')) throw err;
    }
    try {
      const result = await call('documented');
      shape = 'documented';
      return result;
    } catch (err) {
      if (err instanceof KubeletError && err.code === 'UNIMPLEMENTED') {
        throw new KubeletError('UNIMPLEMENTED', `Neither Pods API shape answers on ${options.socketPath}: ${err.message}`,
          'Check that the socket is the kubelet Pods API socket (not the pod-resources one), and pass it with --socket.', { cause: err });
      }
      throw err;
    }
  };
  /**
   * Finds which shape answers by asking GetPod for a UID no pod has: NOT_FOUND says the call is there, at
   * no cost, where a ListPods would bring every pod (30,000 pods: ~90 MB) only to be dropped.
   * `waitIfBusy`: wait out "initializing" and rate limits here; the watch does not, it shows them as
   * its state instead.
   */
  const probeShape = (waitIfBusy: boolean) =>
    detecting(async (api) => {
      const probe = () =>
        getPodCall(api, SHAPE_PROBE_UID).then(
          () => undefined,
          (err: unknown) => {
            if (!(err instanceof KubeletError && err.code === 'NOT_FOUND')) throw err;
          },
        );
      await (waitIfBusy ? busyRetry(probe) : probe());
    });

  return {
    async detectApiShape() {
      if (!shape) await probeShape(true);
      return shape!;
    },
    listPods: <K extends HeldPod = ReceivedPod>(call: ListPodsCall<K> = {}) => detecting((api) => list(api, call)),
    // One ListPods, even while the shape is still unknown: these lists can be 10,000 pods over SSH.
    listPodBytes() {
      if (options.mask) return Promise.reject(new Error('listPodBytes returns pods as the kubelet sent them; with a mask, use listPods'));
      return detecting(async (api) => ({ bytes: await listBytes(api), undecodable: [] }));
    },
    streamPodBytes(handlers) {
      if (options.mask) return Promise.reject(new Error('streamPodBytes hands on pods as the kubelet sent them; with a mask, use listPods'));
      // What the consumer throws (a pod it cannot use, its output or printing failing) comes back as it is,
      // not as a kubelet failure.
      let consumerError: unknown;
      const consumer = (err: unknown): never => {
        consumerError = err;
        throw err;
      };
      const pod = (bytes: Uint8Array, offset: number) => {
        try {
          handlers.pod(bytes, offset);
        } catch (err) {
          consumer(err);
        }
      };
      const size = (bytes: number) => {
        try {
          handlers.size?.(bytes);
        } catch (err) {
          consumer(err);
        }
      };
      const wait = () => handlers.wait?.()?.catch(consumer) ?? null;
      return detecting((api) => busyRetry(() => listCall(api, { ...handlers, pod, size, wait }, () => consumerError)));
    },
    async getPod(uid) {
      // GetPod itself finds the shape: no ListPods of every pod to fetch one.
      let api: ApiShape = 'shipped';
      const bytes = await detecting((a) => busyRetry(() => getPodCall((api = a), uid)));
      const reader = podReader(options.mask);
      return { pod: reader.read(readGetPodResponse(bytes), `GetPod ${uid}`), api, maskHonoured: reader.maskHonoured() };
    },
    async watchPods<K extends HeldPod = ReceivedPod>(intake?: PodIntake<K>): Promise<PodStream<K>> {
      if (!shape) await probeShape(false);
      const api = shape!;
      // The kubelet drops a watcher more than 100 events behind: raw messages are only queued as they
      // come (which keeps the connection read), and decoded when the consumer takes them.
      const queue = new EventQueue<Buffer>();
      const reader = podReader(options.mask);
      const seen = new Set<string>();
      let n = 0;
      let cancelled = false;
      const handlers: ServerStreamHandlers = {
        message: (message) => queue.push(message),
        end: (err) => {
          streams.delete(stream);
          queue.end(cancelled || !err ? undefined : fail(err, api, 'WatchPods'));
        },
      };
      const call = serverStream(connection, podsApiMethods(api).WatchPods, new Uint8Array(0), { headers: maskMetadata, maxBytes: MAX_MESSAGE_BYTES }, handlers);
      const stream: PodStream<K> = {
        api,
        backlog: () => queue.length,
        maskHonoured: reader.maskHonoured,
        cancel: () => {
          cancelled = true;
          call.cancel();
          queue.end();
        },
        async *[Symbol.asyncIterator]() {
          for await (const message of queue) {
            let event: WatchMessage<K>;
            try {
              event = toWatchMessage(api, message, n++);
            } catch (err) {
              // A message that cannot be read at all (not a pod that does not decode) ends the watch with that error.
              stream.cancel();
              throw err;
            }
            yield event;
          }
        },
      };
      streams.add(stream);
      return stream;

      function toWatchMessage(shapeNow: ApiShape, message: Buffer, index: number): WatchMessage<K> {
        const label = `WatchPods message ${index}`;
        if (shapeNow === 'shipped') {
          const ev = readWatchPodsEvent(message);
          if (ev.type === 'INITIAL_SYNC_COMPLETE') return { type: 'INITIAL_SYNC_COMPLETE' };
          if (ev.type === 'UNSPECIFIED') throw new KubeletError('INTERNAL', `${label} has no event type`, 'This kubelet sends events Nodescope does not understand; report it with the kubelet version.');
          const pod = readOrError(reader, ev.pod, `${label} (${ev.type})`, intake);
          return pod instanceof PodDecodeError ? { type: 'UNDECODABLE', error: pod } : { type: ev.type, pod };
        }
        const pod = readOrError(reader, readGetPodResponse(message), label, intake);
        if (pod instanceof PodDecodeError) return { type: 'UNDECODABLE', error: pod };
        // The documented watch has no event types: a removed pod comes with only its identity and a
        // deletionTimestamp (proto/kubelet/documented/pods.proto).
        if (pod.tombstone) {
          seen.delete(pod.uid);
          return { type: 'DELETED', pod };
        }
        const type = seen.has(pod.uid) ? 'MODIFIED' : 'ADDED';
        seen.add(pod.uid);
        return { type, pod };
      }
    },
    close() {
      closing.abort(new Error('the kubelet client was closed'));
      // Each watch ends as cancelled (its iteration without an error), then the connection goes.
      for (const s of [...streams]) s.cancel();
      connection.close();
    },
  };
}
