import type { WebSocket } from 'ws';
import type { ServerFrame } from '../contract';
import { openCallerConnection, type BridgeCore, type CallerConnection } from '../core/caller-connection';

/** The part of the host one browser tab talks to (tests serve only some requests). */
export type ServedToTab = BridgeCore;

/**
 * A tab that stops reading would make us buffer without bound; past this it is disconnected and
 * its page reconnects and reloads a fresh snapshot (pods.rows) instead.
 */
const MAX_BUFFERED_BYTES = 32 * 1024 * 1024;

/**
 * Carries the contract's call frames over one authenticated WebSocket (openCallerConnection answers
 * them: errors come back as results naming the bad field). The socket closing, or the server dropping
 * it (a broken frame, a page fallen behind), cancels every call of its page and ends its subscriptions.
 */
export function serveBridgeSocket(ws: WebSocket, host: ServedToTab): void {
  const send = (frame: ServerFrame) => {
    if (ws.readyState !== ws.OPEN) return;
    if (ws.bufferedAmount > MAX_BUFFERED_BYTES) return drop(1013, 'The page fell too far behind; it will reconnect and reload.');
    ws.send(JSON.stringify(frame));
  };
  const connection: CallerConnection = openCallerConnection(host, send, (message) => console.error(`nodescope ui: ${message}`));
  /**
   * Ends the page's connection: its work stops now, and what it sends meanwhile starts nothing. The socket
   * closes once the page answers the close, or ws gives up on it (30 s; a page that does not read never answers).
   */
  const drop = (code: number, reason: string) => {
    connection.close();
    ws.close(code, reason);
  };
  ws.on('close', () => connection.close());
  // A bad frame (too big, not UTF-8) is an 'error' before ws closes the socket itself; unheard, it
  // would end the whole server.
  ws.on('error', (err) => {
    console.error(`nodescope ui: closed a page's socket: ${err.message}`);
    connection.close();
  });

  ws.on('message', (data, isBinary) => {
    let parsed: unknown;
    try {
      parsed = isBinary ? undefined : JSON.parse(data.toString());
    } catch {
      parsed = undefined;
    }
    // Without a valid id there is nobody to answer; the protocol is broken, so end it clearly.
    if (!connection.receive(parsed)) drop(1008, 'Expected a JSON call frame {type:"request", id, name, input} or {type:"cancel", id}.');
  });
}
