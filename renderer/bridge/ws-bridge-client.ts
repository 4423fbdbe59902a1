import type { Bridge } from '../../app/contract/bridge';
import { ContractError, unwrapResult } from '../../app/contract/errors';
import type { EventName, EventPayload } from '../../app/contract/events';
import type { RequestInput, RequestName, RequestOutput } from '../../app/contract/requests';
import { ServerMessageSchema, type ClientMessage } from '../../app/contract/ws-wire';

/** The subset of the WebSocket API used here (the browser's, or the `ws` package's in tests). */
export interface SocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(): void;
  onopen: ((ev: unknown) => void) | null;
  onclose: ((ev: unknown) => void) | null;
  onerror: ((ev: unknown) => void) | null;
  onmessage: ((ev: { data: unknown }) => void) | null;
}
export type SocketFactory = (url: string) => SocketLike;

export type SocketStatus = 'connecting' | 'open' | 'closed';

export interface WsBridge extends Bridge {
  /** Told when the socket opens (again) or drops; the app resyncs after a reconnect. */
  onStatus(listener: (status: SocketStatus) => void): () => void;
  close(): void;
}

const OPEN = 1;

/**
 * Browser mode's Bridge: requests and events over one WebSocket (framing in app/contract/ws-wire).
 * Requests wait while the socket (re)connects; a drop fails the requests in flight with a clear
 * error and retries with backoff up to 5 s.
 */
export function createWsBridge(url: string, connect: SocketFactory = (u) => new WebSocket(u) as unknown as SocketLike): WsBridge {
  let socket: SocketLike | null = null;
  let nextId = 1;
  let closedByUs = false;
  let retryDelay = 250;
  const inFlight = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void; frame: string; sent: boolean }>();
  const listeners = new Map<string, Set<(payload: never) => void>>();
  const statusListeners = new Set<(status: SocketStatus) => void>();
  const setStatus = (status: SocketStatus) => statusListeners.forEach((l) => l(status));

  function open(): void {
    setStatus('connecting');
    const s = connect(url);
    socket = s;
    s.onopen = () => {
      retryDelay = 250;
      setStatus('open');
      for (const call of inFlight.values()) {
        if (!call.sent) {
          s.send(call.frame);
          call.sent = true;
        }
      }
    };
    s.onmessage = (ev) => {
      let data: unknown;
      try {
        data = JSON.parse(String(ev.data));
      } catch {
        return;
      }
      const parsed = ServerMessageSchema.safeParse(data);
      if (!parsed.success) return;
      const msg = parsed.data;
      if (msg.type === 'response') {
        const call = inFlight.get(msg.id);
        inFlight.delete(msg.id);
        if (!call) return;
        try {
          call.resolve(unwrapResult(msg.result));
        } catch (err) {
          call.reject(err as Error);
        }
      } else {
        for (const handler of listeners.get(msg.name) ?? []) (handler as (p: unknown) => void)(msg.payload);
      }
    };
    s.onerror = () => {};
    s.onclose = () => {
      if (socket !== s) return;
      socket = null;
      for (const [id, call] of inFlight) {
        if (!call.sent) continue;
        inFlight.delete(id);
        call.reject(
          new ContractError('disconnected', 'Lost the connection to Nodescope while waiting for an answer.', 'Check that `nodescope ui` is still running; the page reconnects by itself.'),
        );
      }
      setStatus('closed');
      if (closedByUs) return;
      setTimeout(open, retryDelay);
      retryDelay = Math.min(retryDelay * 2, 5000);
    };
  }
  open();

  return {
    request<N extends RequestName>(name: N, input: RequestInput<N>): Promise<RequestOutput<N>> {
      const id = nextId++;
      const frame = JSON.stringify({ type: 'request', id, name, input } satisfies ClientMessage);
      return new Promise((resolve, reject) => {
        const sent = socket?.readyState === OPEN;
        inFlight.set(id, { resolve: resolve as (v: unknown) => void, reject, frame, sent });
        if (sent) socket?.send(frame);
      });
    },
    on<E extends EventName>(event: E, handler: (payload: EventPayload<E>) => void) {
      let set = listeners.get(event);
      if (!set) listeners.set(event, (set = new Set()));
      set.add(handler as (payload: never) => void);
      return () => set.delete(handler as (payload: never) => void);
    },
    onStatus(listener) {
      statusListeners.add(listener);
      return () => statusListeners.delete(listener);
    },
    close() {
      closedByUs = true;
      socket?.close();
    },
  };
}
