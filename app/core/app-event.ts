import type { EventName, EventPayload, PodDeltas, RequestHandlers } from '../contract';

/**
 * One event of the app core: an event of the contract (for every window), typed by name, or a node's
 * pod batch, which hosts never send to every window: the windows watching the node get it (pods.watch).
 */
export type AppEvent = { [E in EventName]: { name: E; payload: EventPayload<E> } }[EventName] | { name: 'podDeltas'; payload: PodDeltas };

/**
 * What a host (Electron main, the browser-mode server) needs from the app core: a handler per
 * contract request and one stream of contract events. Hosts validate both with the contract's
 * schemas (handleRequest, validateEvent) before anything crosses to the UI.
 */
export interface AppCore {
  handlers: RequestHandlers;
  subscribe(listener: (event: AppEvent) => void): () => void;
}
