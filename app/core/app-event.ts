import type { EventName, EventPayload } from '../contract';

/**
 * One event of the contract, typed by name: what the core emits and the host serves. Hosts validate
 * events with the contract's schemas (validateEvent) before anything crosses to the UI.
 */
export type AppEvent = { [E in EventName]: { name: E; payload: EventPayload<E> } }[EventName];
