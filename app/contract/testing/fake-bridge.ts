import type { Bridge, CallOptions } from '../bridge';
import { validateEvent } from '../bridge';
import { ContractError, unwrapResult } from '../errors';
import { CANCELLED_BY_CALLER } from '../jobs';
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
    async request<N extends RequestName>(name: N, input: RequestInput<N>, options: CallOptions<N> = {}): Promise<RequestOutput<N>> {
      calls.push({ name, input });
      // The caller's signal is the call's, as a host's connection makes it: cancelling stops the handler's work.
      const signal = options.signal ?? new AbortController().signal;
      const cancelled = new Promise<never>((_, reject) => {
        const cancel = () => reject(new ContractError('cancelled', CANCELLED_BY_CALLER));
        if (signal.aborted) cancel();
        else signal.addEventListener('abort', cancel, { once: true });
      });
      let over = false;
      const progress = (p: unknown) => !over && !signal.aborted && options.onProgress?.(p as never);
      const answer = handleRequest(handlers, name, input, { signal, caller: new AbortController().signal, progress });
      try {
        return unwrapResult(await Promise.race([answer, cancelled])) as RequestOutput<N>;
      } finally {
        over = true;
      }
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
