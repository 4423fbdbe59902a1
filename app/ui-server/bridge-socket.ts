import type { WebSocket } from 'ws';
import {
  ClientMessageSchema,
  handleRequest,
  eventForUi,
  type RequestHandlers,
  type ServerMessage,
} from '../contract';
import type { Host } from '../host/host';

/** The part of the host one browser tab talks to (tests serve only some requests). */
export type ServedToTab = Pick<Host, 'subscribe'> & { handlers: Partial<RequestHandlers> };

/**
 * A tab that stops reading would make us buffer without bound; past this it is disconnected and
 * its page reconnects and reloads a fresh snapshot (pods.rows) instead.
 */
const MAX_BUFFERED_BYTES = 32 * 1024 * 1024;

/**
 * Carries the contract over one authenticated WebSocket: requests are validated and answered by
 * handleRequest (never throws, errors come back as results naming the bad field); events are
 * validated at the boundary and forwarded as they come — the app core already batches pod changes
 * per frame.
 */
export function serveBridgeSocket(ws: WebSocket, host: ServedToTab): void {
  const send = (message: ServerMessage) => {
    if (ws.readyState !== ws.OPEN) return;
    if (ws.bufferedAmount > MAX_BUFFERED_BYTES) {
      ws.close(1013, 'The page fell too far behind; it will reconnect and reload.');
      return;
    }
    ws.send(JSON.stringify(message));
  };

  const unsubscribe = host.subscribe((event) => {
    try {
      send({ type: 'event', name: event.name, payload: eventForUi(event.name, event.payload) });
    } catch (err) {
      // A bug in the app must not reach the UI as a malformed event; say where it came from instead.
      console.error(`nodescope ui: dropped ${event.name} event: ${err instanceof Error ? err.message : String(err)}`);
    }
  });
  ws.on('close', unsubscribe);
  // A bad frame (too big, not UTF-8) is an 'error' before ws closes the socket itself; unheard, it
  // would end the whole server.
  ws.on('error', (err) => console.error(`nodescope ui: closed a page's socket: ${err.message}`));

  ws.on('message', (data, isBinary) => {
    let parsed: unknown;
    try {
      parsed = isBinary ? undefined : JSON.parse(data.toString());
    } catch {
      parsed = undefined;
    }
    const message = ClientMessageSchema.safeParse(parsed);
    if (!message.success) {
      // Without a valid id there is nobody to answer; the protocol is broken, so end it clearly.
      ws.close(1008, 'Expected a JSON request {type:"request", id, name, input}.');
      return;
    }
    const { id, name, input } = message.data;
    void handleRequest(host.handlers, name, input).then((result) => send({ type: 'response', id, result }));
  });
}
