import type { Bridge } from '../bridge';
import { validateEvent } from '../bridge';
import { unwrapResult } from '../errors';
import type { EventName, EventPayload } from '../events';
import { handleRequest, type RequestHandlers } from '../handle-request';
import type { RequestInput, RequestName, RequestOutput } from '../requests';

export interface FakeBridge extends Bridge {
  /** Pushes an event to subscribers, validated like a real host would. */
  emit<E extends EventName>(event: E, payload: EventPayload<E>): void;
  /** Requests made so far, in order, with their validated input. */
  readonly calls: { name: RequestName; input: unknown }[];
  /** Replaces or adds handlers (e.g. to make one request fail in a test). */
  handle(handlers: Partial<RequestHandlers>): void;
}

/**
 * An in-memory Bridge for renderer tests and the design preview: requests go through the same
 * validation as the real hosts (handleRequest), so a renderer bug that sends bad input fails here
 * exactly as it would against the app core.
 */
export function createFakeBridge(initial: Partial<RequestHandlers> = {}): FakeBridge {
  const handlers: Partial<RequestHandlers> = { ...initial };
  const listeners = new Map<EventName, Set<(payload: never) => void>>();
  const calls: { name: RequestName; input: unknown }[] = [];
  return {
    calls,
    handle(more) {
      Object.assign(handlers, more);
    },
    async request<N extends RequestName>(name: N, input: RequestInput<N>): Promise<RequestOutput<N>> {
      calls.push({ name, input });
      return unwrapResult(await handleRequest(handlers, name, input)) as RequestOutput<N>;
    },
    on(event, handler) {
      let set = listeners.get(event);
      if (!set) listeners.set(event, (set = new Set()));
      set.add(handler as (payload: never) => void);
      return () => set.delete(handler as (payload: never) => void);
    },
    emit(event, payload) {
      const valid = validateEvent(event, payload);
      for (const handler of listeners.get(event) ?? []) (handler as (p: typeof valid) => void)(valid);
    },
  };
}
