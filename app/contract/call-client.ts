import type { Bridge } from './bridge';
import { ContractError, unwrapResult } from './errors';
import type { EventName, EventPayload } from './events';
import { CANCELLED_BY_CALLER, ServerFrameSchema, type ClientFrame } from './jobs';

export interface CallClient {
  /** The Bridge the UI uses: requests, jobs and subscriptions as call frames, events by name. */
  bridge: Bridge;
  /** A frame from the host (parsed JSON, or a structured-clone copy over IPC); anything else is ignored. */
  receive(frame: unknown): void;
  /** The transport is open (again): calls made meanwhile go out now. */
  opened(): void;
  /** The transport dropped: the host cancelled the calls it had, so they fail here with `disconnected`. */
  dropped(): void;
}

interface Call {
  frame: ClientFrame;
  sent: boolean;
  resolve(value: unknown): void;
  reject(error: Error): void;
  progress?: (progress: never) => void;
  /** Stops listening to the caller's signal once the call is over. */
  done(): void;
}

/**
 * The caller's side of the call frames (jobs.ts), whatever carries them: the browser-mode WebSocket
 * (renderer/bridge/ws-bridge-client.ts) or Electron's IPC through the preload (renderer/bridge/select-bridge.ts).
 * `send` answers false when the transport is not open: the call waits for `opened`.
 */
export function createCallClient(send: (frame: ClientFrame) => boolean): CallClient {
  let nextId = 1;
  const calls = new Map<number, Call>();
  const listeners = new Map<string, Set<(payload: never) => void>>();

  const settle = (id: number): Call | undefined => {
    const call = calls.get(id);
    calls.delete(id);
    call?.done();
    return call;
  };

  const bridge: Bridge = {
    request(name, input, options = {}) {
      const { signal, onProgress } = options;
      if (signal?.aborted) return Promise.reject(new ContractError('cancelled', CANCELLED_BY_CALLER));
      const id = nextId++;
      const frame: ClientFrame = { type: 'request', id, name, input };
      return new Promise((resolve, reject) => {
        const cancel = () => {
          const call = settle(id);
          if (!call) return;
          if (call.sent) send({ type: 'cancel', id });
          reject(new ContractError('cancelled', CANCELLED_BY_CALLER));
        };
        signal?.addEventListener('abort', cancel, { once: true });
        calls.set(id, {
          frame,
          sent: send(frame),
          resolve: resolve as (value: unknown) => void,
          reject,
          ...(onProgress ? { progress: onProgress as (progress: never) => void } : {}),
          done: () => signal?.removeEventListener('abort', cancel),
        });
      });
    },
    on<E extends EventName>(event: E, handler: (payload: EventPayload<E>) => void) {
      let set = listeners.get(event);
      if (!set) listeners.set(event, (set = new Set()));
      set.add(handler as (payload: never) => void);
      return () => set.delete(handler as (payload: never) => void);
    },
  };

  return {
    bridge,
    receive(data) {
      const parsed = ServerFrameSchema.safeParse(data);
      if (!parsed.success) return;
      const frame = parsed.data;
      if (frame.type === 'event') {
        for (const handler of listeners.get(frame.name) ?? []) {
          // One view's bug must not keep the event from the others; it is still reported, with its stack.
          try {
            (handler as (p: unknown) => void)(frame.payload);
          } catch (err) {
            console.error(`nodescope: a listener of the ${frame.name} event failed:`, err);
          }
        }
      } else if (frame.type === 'progress') {
        (calls.get(frame.id)?.progress as ((p: unknown) => void) | undefined)?.(frame.progress);
      } else {
        const call = settle(frame.id);
        if (!call) return;
        try {
          call.resolve(unwrapResult(frame.result));
        } catch (err) {
          call.reject(err as Error);
        }
      }
    },
    opened() {
      for (const call of calls.values()) if (!call.sent) call.sent = send(call.frame);
    },
    dropped() {
      for (const [id, call] of calls) {
        if (!call.sent) continue;
        settle(id);
        call.reject(
          new ContractError('disconnected', 'Lost the connection to Nodescope while waiting for an answer.', 'Check that `nodescope ui` is still running; the page reconnects by itself.'),
        );
      }
    },
  };
}

