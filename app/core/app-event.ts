import type { EventName, EventPayload, RequestHandlers } from '../contract';

/** One event of the contract, typed by name. */
export type AppEvent = { [E in EventName]: { name: E; payload: EventPayload<E> } }[EventName];

/**
 * What a host (Electron main, the browser-mode server) needs from the app core: a handler per
 * contract request and one stream of contract events. Hosts validate both with the contract's
 * schemas (handleRequest, validateEvent) before anything crosses to the UI.
 */
export interface AppCore {
  handlers: RequestHandlers;
  subscribe(listener: (event: AppEvent) => void): () => void;
}
