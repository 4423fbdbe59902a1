import type { EventName, EventPayload, PodDeltas, WatchEvents } from '../contract';

/**
 * One event of the core: an event of the contract, typed by name, which the host serves to every window
 * (validated with the contract's schemas, validateEvent, before anything crosses to the UI); or a node's
 * pod batch or feed lines, which go only to the windows watching the node (pods.watch), never to every window.
 */
export type AppEvent = { [E in EventName]: { name: E; payload: EventPayload<E> } }[EventName] | NodeWatchEvent;

/** A node's pod batch or feed lines: for its watchers (pods.watch), no event of the contract. */
export type NodeWatchEvent = { name: 'podDeltas'; payload: PodDeltas } | { name: 'watchEvents'; payload: WatchEvents };

/** Whether the event goes to the node's watchers only. */
export const isNodeWatchEvent = (event: AppEvent): event is NodeWatchEvent => event.name === 'podDeltas' || event.name === 'watchEvents';
