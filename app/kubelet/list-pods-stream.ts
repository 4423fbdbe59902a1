/**
 * One ListPods call read as it arrives, each pod handed on as soon as its bytes are in, rather than as one
 * whole message: at 30,000 pods that is ~94 MiB, with nothing to show or print until the last byte. So
 * printing overlaps the transfer, memory holds about one pod plus what the caller keeps, and the CLI can
 * count pods as they come. Failures come back shaped as grpc-js errors (code, details), for toKubeletError.
 */
import { startCall } from '../grpc/call';
import type { GrpcConnection } from '../grpc/connection';
import { grpcError, Status } from '../grpc/grpc-error';
import { DEFAULT_CALL_TIMEOUT_MS, watchAnswer } from './call-timeout';

export interface ListPodsStreamHandlers {
  /** One pod's bytes, and where they start in the ListPodsResponse; a view valid during the call only (copy to keep). */
  pod(bytes: Uint8Array, offset: number): void;
  /** Back-pressure: a promise to wait for before reading on (a slow stdout), or null to go on. */
  wait?(): Promise<void> | null;
  /** The response's size in bytes, once its first bytes are in and before any pod: how much is coming. */
  size?(bytes: number): void;
}

export interface ListPodsCallOptions {
  /** gRPC metadata (the field mask), sent as request headers. */
  metadata?: Record<string, string>;
  /** Default DEFAULT_CALL_TIMEOUT_MS. */
  timeoutMs?: number;
}

/**
 * Calls `methodPath` (a ListPods of either API shape) on the connection and hands every pod of its response to
 * `handlers.pod`; resolves with the number of pods once the kubelet's status says OK. A kubelet that does not
 * answer within the timeout, or then brings too little of its answer in a timeout (watchAnswer; time spent
 * waiting on `handlers.wait` does not count), fails the call with DEADLINE_EXCEEDED.
 */
export function streamListPods(connection: GrpcConnection, methodPath: string, handlers: ListPodsStreamHandlers, options: ListPodsCallOptions = {}): Promise<number> {
  const { metadata = {}, timeoutMs = DEFAULT_CALL_TIMEOUT_MS } = options;
  return new Promise((resolve, reject) => {
    const reader = new ListPodsResponseReader(handlers.pod, handlers.size);
    let ended = false;
    const answer = watchAnswer(timeoutMs, (why) => call.fail(grpcError(Status.DEADLINE_EXCEEDED, why)));
    // The request: one empty message.
    const call = startCall(connection, methodPath, new Uint8Array(0), { headers: metadata }, {
      begun: () => answer.begun(),
      data: (chunk) => {
        answer.begun();
        answer.received(chunk.length);
        reader.push(chunk);
        const wait = handlers.wait?.();
        if (!wait) return;
        call.pause();
        answer.pause();
        wait.then(
          () => {
            if (ended) return;
            answer.resume();
            call.resume();
          },
          (err: Error) => call.fail(err),
        );
      },
      end: (err) => {
        ended = true;
        answer.stop();
        if (err) return reject(err);
        if (!reader.complete()) return reject(grpcError(Status.INTERNAL, `${methodPath} ended in the middle of its response`));
        resolve(reader.pods);
      },
    });
  });
}

/**
 * Reads a gRPC message stream holding one ListPodsResponse (pods = field 1, as both API shapes have it)
 * from chunks of any size, handing on each pod as soon as it is whole and skipping fields it does not know.
 */
export class ListPodsResponseReader {
  pods = 0;
  private messages = 0;
  private parts: Buffer[] = [];
  private have = 0;
  /** Bytes left in the current gRPC message; -1 before a message's 5-byte prefix. */
  private left = -1;
  /** The current message's length, so a pod's offset in it can be named. */
  private length = 0;
  /** The field being waited for: its header and payload lengths, and whether it is a pod. */
  private field: { head: number; length: number; pod: boolean } | null = null;

  constructor(
    private readonly onPod: (bytes: Uint8Array, offset: number) => void,
    private readonly onSize?: (bytes: number) => void,
  ) {}

  push(chunk: Buffer): void {
    this.parts.push(chunk);
    this.have += chunk.length;
    for (;;) {
      if (this.left < 0) {
        if (this.have < 5) return;
        const prefix = this.take(5);
        if (prefix[0] !== 0) throw grpcError(Status.INTERNAL, 'the kubelet sent a compressed message, which was not asked for');
        this.left = prefix.readUInt32BE(1);
        this.length = this.left;
        if (this.messages++ === 0) this.onSize?.(this.length);
      }
      if (this.left === 0) {
        this.left = -1;
        continue;
      }
      this.field ??= this.fieldHeader();
      if (!this.field) return;
      const { head, length, pod } = this.field;
      if (this.have < head + length) return;
      this.drop(head);
      if (pod) {
        this.onPod(this.take(length), this.length - this.left + head);
        this.pods++;
      } else this.drop(length);
      this.left -= head + length;
      this.field = null;
    }
  }

  /** Whether the response came whole: its message, and nothing cut off after it. */
  complete(): boolean {
    return this.messages > 0 && this.left < 0 && this.have === 0;
  }

  /** The next field's header, or null until enough bytes are in. */
  private fieldHeader(): { head: number; length: number; pod: boolean } | null {
    if (this.have === 0) return null;
    const window = Math.min(this.left, 20);
    const buf = this.peek(Math.min(window, this.have));
    const tag = varint(buf, 0, buf.length);
    if (!tag) return this.malformedIf(buf.length >= window);
    const wire = tag.value % 8;
    const fieldNo = Math.floor(tag.value / 8);
    if (wire === 1 || wire === 5) return { head: tag.size, length: wire === 1 ? 8 : 4, pod: false };
    const second = varint(buf, tag.size, buf.length);
    if (!second) return this.malformedIf(buf.length >= window);
    if (wire === 0) return { head: tag.size + second.size, length: 0, pod: false };
    if (wire !== 2) throw grpcError(Status.INTERNAL, `ListPodsResponse has a field of wire type ${wire}, which protobuf does not define`);
    if (tag.size + second.size + second.value > this.left) throw grpcError(Status.INTERNAL, 'ListPodsResponse has a field longer than its message');
    return { head: tag.size + second.size, length: second.value, pod: fieldNo === 1 };
  }

  private malformedIf(cannotGrow: boolean): null {
    if (cannotGrow) throw grpcError(Status.INTERNAL, 'ListPodsResponse has a malformed field header');
    return null;
  }

  /** At least `n` bytes contiguous at the front (joining the first parts when a header spans two chunks). */
  private peek(n: number): Buffer {
    if (this.parts[0]!.length < n) this.parts = [Buffer.concat(this.parts)];
    return this.parts[0]!;
  }

  private take(n: number): Buffer {
    if (n === 0) return Buffer.alloc(0);
    const first = this.parts[0]!;
    let out: Buffer;
    if (first.length >= n) {
      out = first.subarray(0, n);
      if (first.length === n) this.parts.shift();
      else this.parts[0] = first.subarray(n);
    } else {
      out = Buffer.allocUnsafe(n);
      let filled = 0;
      while (filled < n) {
        const part = this.parts[0]!;
        const used = Math.min(part.length, n - filled);
        part.copy(out, filled, 0, used);
        filled += used;
        if (used === part.length) this.parts.shift();
        else this.parts[0] = part.subarray(used);
      }
    }
    this.have -= n;
    return out;
  }

  private drop(n: number): void {
    this.take(n);
  }
}

/** A protobuf varint at `at`, or null when `end` comes first. Lengths here stay far below 2^53. */
function varint(buf: Uint8Array, at: number, end: number): { value: number; size: number } | null {
  let value = 0;
  let scale = 1;
  for (let i = at; i < end && i - at < 10; i++) {
    const b = buf[i]!;
    value += (b & 0x7f) * scale;
    if (b < 0x80) return { value, size: i - at + 1 };
    scale *= 128;
  }
  return null;
}
