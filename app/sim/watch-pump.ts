// Feeds one watcher's stream like the kubelet does (pkg/kubelet/pods/server.go on grpc-go): the initial
// replay is written as fast as the transport takes it; live events wait in the watcher's channel of
// `limit` events while the stream's Send is blocked, and a watcher whose channel overflows is dropped.
//
// What a stalled watcher still receives is the kubelet's, not a harsher cut: grpc-go's Send only blocks
// once the stream holds its write quota (64 KiB) of messages not yet on the wire, and messages reach the
// wire as far as the client's HTTP/2 window and the socket buffers allow (here the real ones, as the
// simulator serves a real HTTP/2 connection). A dropped watcher's channel is closed, not emptied: its
// handler still sends every event queued before the drop, then ends with RESOURCE_EXHAUSTED.
import { status as Status, type ServerWritableStream } from '@grpc/grpc-js';

/** grpc-go's defaultWriteQuota: bytes a server stream may hold unsent before Send blocks. */
export const GRPC_GO_WRITE_QUOTA = 64 * 1024;
/** The kubelet's status for a watcher dropped for falling behind. */
export const WATCH_DROPPED_DETAILS = 'watch client channel closed';
/** The gRPC length prefix each message carries on the wire, counted in grpc-go's quota. */
const MESSAGE_PREFIX_BYTES = 5;

export interface WatchPumpOptions {
  /** Live events the watcher's channel holds before it is dropped (the kubelet's 100). */
  limit: number;
  /**
   * Harsher than the kubelet, for tests of a client's recovery: one message at a time in the transport,
   * and a drop discards the queued events instead of sending them before the status.
   */
  strict: boolean;
  /** Called once when the watcher falls `limit` events behind and is dropped (the stream may go on). */
  onDropped: () => void;
  /** Called once, with the final status, when the watch ends for any reason. */
  onEnd: (code: Status) => void;
}

export class WatchPump {
  /** Replay messages are made on demand, so a 5,000-pod replay does not sit in memory encoded. */
  private replay: Iterator<Uint8Array> | undefined;
  /** The watcher's channel: live events the handler has not taken yet. */
  private readonly live: Uint8Array[] = [];
  /** Bytes written to the call whose write has not completed (not yet on the wire). */
  private unsent = 0;
  /** The channel was closed for overflowing: send what it holds, then end. */
  private dropped = false;
  private ended = false;

  constructor(
    private readonly call: ServerWritableStream<unknown, Uint8Array>,
    private readonly options: WatchPumpOptions,
  ) {
    call.on('cancelled', () => this.finish(Status.CANCELLED));
  }

  /** Starts writing the replay; live events pushed meanwhile are sent after it. */
  startReplay(messages: Iterable<Uint8Array>): void {
    this.replay = messages[Symbol.iterator]();
    this.flush();
  }

  push(message: Uint8Array): void {
    if (this.ended || this.dropped) return;
    this.live.push(message);
    if (this.live.length > this.capacity()) {
      this.dropped = true;
      this.live.pop();
      this.options.onDropped();
      if (this.options.strict) {
        this.end(Status.RESOURCE_EXHAUSTED, WATCH_DROPPED_DETAILS);
        return;
      }
    }
    this.flush();
  }

  /** Ends the stream with a status at once (after what is already written reaches the client). */
  end(code: Status, details: string): void {
    if (!this.finish(code)) return;
    if (code === Status.OK) this.call.end();
    else this.call.emit('error', { code, details });
  }

  /**
   * Events waiting before the next one overflows: the channel, plus (after the replay, while Send is
   * blocked) the one event the handler has taken from it and is trying to send.
   */
  private capacity(): number {
    return this.options.limit + (this.replay || this.options.strict ? 0 : 1);
  }

  /** Marks the watch over; false if it already was. */
  private finish(code: Status): boolean {
    if (this.ended) return false;
    this.ended = true;
    this.replay = undefined;
    this.live.length = 0;
    this.options.onEnd(code);
    return true;
  }

  /** Whether Send would block: grpc-go sends while its quota is positive (strict: nothing may wait). */
  private blocked(): boolean {
    return this.options.strict ? this.unsent > 0 : this.unsent >= GRPC_GO_WRITE_QUOTA;
  }

  private flush(): void {
    while (!this.blocked() && !this.ended) {
      let message: Uint8Array | undefined;
      try {
        message = this.nextMessage();
      } catch (err) {
        // A replay message that cannot be made (a pod the encoder refuses) ends this watch only.
        this.end(Status.INTERNAL, `failed to marshal pod: ${(err as Error).message}`);
        return;
      }
      if (message === undefined) {
        if (this.dropped) this.end(Status.RESOURCE_EXHAUSTED, WATCH_DROPPED_DETAILS);
        return;
      }
      const size = message.length + MESSAGE_PREFIX_BYTES;
      this.unsent += size;
      // The callback runs once grpc-js has put the message on the wire (within the client's window).
      this.call.write(message, () => {
        this.unsent -= size;
        this.flush();
      });
    }
  }

  private nextMessage(): Uint8Array | undefined {
    if (this.replay) {
      const next = this.replay.next();
      if (!next.done) return next.value;
      this.replay = undefined;
    }
    return this.live.shift();
  }
}
