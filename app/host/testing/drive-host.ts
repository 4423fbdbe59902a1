import { handleRequest, type RequestName } from '../../contract';
import type { AppEvent } from '../../core/app-event';
import type { Host } from '../host';

/**
 * Talks to an inspector as a host does: requests through the contract's validation, and every event
 * it sends from now on, kept for the test to look through.
 */
export function driveHost(inspector: Host) {
  const events: AppEvent[] = [];
  inspector.subscribe((e) => events.push(e));
  return { events, call: callerOf(inspector) };
}

/** A request through the contract's validation; a failure throws with the request's name. */
export function callerOf(inspector: Host) {
  return async <T = unknown,>(name: RequestName, input: unknown = {}): Promise<T> => {
    const result = await handleRequest(inspector.handlers, name, input);
    if (!result.ok) throw new Error(`${name}: ${result.error.message}`);
    return result.value as T;
  };
}

/** A call as a window makes it: its progress kept in order, cancellable, its result a RequestResult. */
export function startCall(inspector: Pick<Host, 'handlers'>, name: RequestName, input: unknown = {}) {
  const progress: unknown[] = [];
  const cancelling = new AbortController();
  const result = handleRequest(inspector.handlers, name, input, { signal: cancelling.signal, progress: (p) => progress.push(p), caller: new AbortController().signal });
  return { progress, result, cancel: () => cancelling.abort() };
}
