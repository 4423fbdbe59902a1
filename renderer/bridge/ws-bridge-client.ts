import type { Bridge } from '../../app/contract/bridge';
import { createCallClient } from '../../app/contract/call-client';

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
 * Browser mode's Bridge: the call frames (app/contract/jobs.ts) over one WebSocket (app/contract/ws-wire.ts).
 * Requests wait while the socket (re)connects; a drop fails the calls in flight with a clear error (the
 * server cancelled them with the socket) and retries with backoff up to 5 s.
 */
export function createWsBridge(url: string, connect: SocketFactory = (u) => new WebSocket(u) as unknown as SocketLike): WsBridge {
  let socket: SocketLike | null = null;
  let closedByUs = false;
  let retryDelay = 250;
  const statusListeners = new Set<(status: SocketStatus) => void>();
  const setStatus = (status: SocketStatus) => statusListeners.forEach((l) => l(status));
  const client = createCallClient((frame) => {
    if (socket?.readyState !== OPEN) return false;
    socket.send(JSON.stringify(frame));
    return true;
  });

  function open(): void {
    setStatus('connecting');
    const s = connect(url);
    socket = s;
    s.onopen = () => {
      retryDelay = 250;
      setStatus('open');
      client.opened();
    };
    s.onmessage = (ev) => {
      let data: unknown;
      try {
        data = JSON.parse(String(ev.data));
      } catch {
        return;
      }
      client.receive(data);
    };
    s.onerror = () => {};
    s.onclose = () => {
      if (socket !== s) return;
      socket = null;
      client.dropped();
      setStatus('closed');
      if (closedByUs) return;
      setTimeout(open, retryDelay);
      retryDelay = Math.min(retryDelay * 2, 5000);
    };
  }
  open();

  return {
    ...client.bridge,
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
