import { z } from 'zod';
import { ContractError } from './errors';
import { eventNames, events, type EventName, type EventPayload } from './events';
import {
  requestNames,
  requests,
  type RequestInput,
  type RequestName,
  type RequestOutput,
  type ValidInput,
} from './requests';

/**
 * The one way the UI talks to the app core, whatever carries it: Electron IPC (the preload exposes
 * an object of this shape as `window.nodescope`), a WebSocket (browser mode) or memory (tests).
 * request rejects with a ContractError carrying the host's code, message and next step.
 */
export interface Bridge {
  request<N extends RequestName>(name: N, input: RequestInput<N>): Promise<RequestOutput<N>>;
  /** Subscribes; returns the function that unsubscribes. */
  on<E extends EventName>(event: E, handler: (payload: EventPayload<E>) => void): () => void;
}

/**
 * Channel names, prefixed so they never clash with anything else on the IPC bus:
 * requests `nodescope:<request>` (e.g. `nodescope:pods.get`, answered with a RequestResult),
 * events `nodescope:event:<event>` (e.g. `nodescope:event:podDeltas`).
 */
export const CHANNEL_PREFIX = 'nodescope:';
export const requestChannel = (name: RequestName): string => `${CHANNEL_PREFIX}${name}`;
export const eventChannel = (name: EventName): string => `${CHANNEL_PREFIX}event:${name}`;

export function isRequestName(name: unknown): name is RequestName {
  return typeof name === 'string' && (requestNames as string[]).includes(name);
}

export function isEventName(name: unknown): name is EventName {
  return typeof name === 'string' && (eventNames as string[]).includes(name);
}

function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => (issue.path.length > 0 ? `${issue.path.join('.')}: ${issue.message}` : issue.message))
    .join('; ');
}

/**
 * Host side: checks a request's name and input before any handler sees them. Throws a
 * ContractError ('unknown-request' or 'invalid-input') whose message names the bad field.
 */
export function validateRequest<N extends RequestName>(name: N, input: unknown): ValidInput<N>;
export function validateRequest(name: unknown, input: unknown): ValidInput<RequestName>;
export function validateRequest(name: unknown, input: unknown): unknown {
  if (!isRequestName(name)) {
    throw new ContractError(
      'unknown-request',
      `Unknown request ${JSON.stringify(name)}.`,
      `Use one of: ${requestNames.join(', ')}.`,
    );
  }
  const parsed = requests[name].input.safeParse(input ?? {});
  if (!parsed.success) {
    const field = parsed.error.issues[0]?.path.join('.');
    throw new ContractError(
      'invalid-input',
      `Invalid input for ${name}: ${describeIssues(parsed.error)}.`,
      'Correct the highlighted value and try again.',
      field || undefined,
    );
  }
  return parsed.data;
}

/**
 * Host side, before sending: checks an event payload (catches app-core bugs at the boundary
 * instead of in the renderer). Throws a ContractError naming the bad field.
 */
export function validateEvent<E extends EventName>(name: E, payload: unknown): EventPayload<E> {
  if (!isEventName(name)) throw new ContractError('unknown-event', `Unknown event ${JSON.stringify(name)}.`);
  const parsed = events[name].safeParse(payload);
  if (!parsed.success) {
    throw new ContractError('invalid-event', `Invalid ${name} event: ${describeIssues(parsed.error)}.`);
  }
  return parsed.data as EventPayload<E>;
}

/**
 * Events the app core validates where it makes them, once: podDeltas, as each batch is made
 * (app/core/node-pods.ts). A host passes them on as they are, rather than parsing every batch of rows
 * again for each window; every other event is validated by eventForUi.
 */
const VALIDATED_WHERE_MADE: ReadonlySet<EventName> = new Set<EventName>(['podDeltas']);

/** Host side, before sending an event to the UI: validateEvent, unless the core validated it where it made it. */
export function eventForUi<E extends EventName>(name: E, payload: unknown): EventPayload<E> {
  return isEventName(name) && VALIDATED_WHERE_MADE.has(name) ? (payload as EventPayload<E>) : validateEvent(name, payload);
}

/** Host side: checks a handler's output so a bug shows up as a clear error, not a broken view. */
export function validateOutput<N extends RequestName>(name: N, output: unknown): RequestOutput<N> {
  const parsed = requests[name].output.safeParse(output);
  if (!parsed.success) {
    throw new ContractError('invalid-output', `The app returned an invalid ${name} result: ${describeIssues(parsed.error)}.`);
  }
  return parsed.data as RequestOutput<N>;
}
