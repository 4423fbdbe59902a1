// Feeds one watcher's stream like the kubelet does: the initial replay is written as fast as the client
// reads it; live events wait in a buffer of `limit` events while the client is not reading, and a
// watcher whose buffer overflows is dropped with RESOURCE_EXHAUSTED.
import { status as Status, type ServerWritableStream } from '@grpc/grpc-js';

export interface WatchPumpOptions {
  /** Live events allowed to wait for a slow client before it is dropped. */
  limit: number;
  /** Called once, with the final status, when the watch ends for any reason. */
  onEnd: (code: Status) => void;
}

export class WatchPump {
  /** Replay messages are made on demand, so a 5,000-pod replay does not sit in memory encoded. */
  private replay: Iterator<Uint8Array> | undefined;
  private readonly live: Uint8Array[] = [];
  private waitingForDrain = false;
  private ended = false;

  constructor(
    private readonly call: ServerWritableStream<unknown, Uint8Array>,
    private readonly options: WatchPumpOptions,
  ) {
    call.on('drain', () => {
      this.waitingForDrain = false;
      this.flush();
    });
    call.on('cancelled', () => this.finish(Status.CANCELLED));
  }

  /** Starts writing the replay; live events pushed meanwhile are sent after it. */
  startReplay(messages: Iterable<Uint8Array>): void {
    this.replay = messages[Symbol.iterator]();
    this.flush();
  }

  push(message: Uint8Array): void {
    if (this.ended) return;
    this.live.push(message);
    if (this.live.length > this.options.limit) {
      this.end(Status.RESOURCE_EXHAUSTED, `watcher fell more than ${this.options.limit} events behind and was dropped; read the stream promptly and watch again`);
      return;
    }
    this.flush();
  }

  /** Ends the stream with a status (after what is already written reaches the client). */
  end(code: Status, details: string): void {
    if (!this.finish(code)) return;
    if (code === Status.OK) this.call.end();
    else this.call.emit('error', { code, details });
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

  private flush(): void {
    while (!this.waitingForDrain && !this.ended) {
      let message: Uint8Array | undefined;
      try {
        message = this.nextMessage();
      } catch (err) {
        // A replay message that cannot be made (a pod the encoder refuses) ends this watch only.
        this.end(Status.INTERNAL, `failed to marshal pod: ${(err as Error).message}`);
        return;
      }
      if (message === undefined) return;
      // write() returning false means the client is not keeping up: wait for 'drain'.
      if (!this.call.write(message)) this.waitingForDrain = true;
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
