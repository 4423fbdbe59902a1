import type { EventName, EventPayload, PodDeltas } from '../contract';

/**
 * One event of the core: an event of the contract, typed by name, which the host serves to every window
 * (validated with the contract's schemas, validateEvent, before anything crosses to the UI); or a node's
 * pod batch, which goes only to the windows watching the node (pods.watch), never to every window.
 */
export type AppEvent = { [E in EventName]: { name: E; payload: EventPayload<E> } }[EventName] | { name: 'podDeltas'; payload: PodDeltas };
