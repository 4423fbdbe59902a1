import { z } from 'zod';
import { ContractError } from './errors';
import { eventNames, events, type EventName, type EventPayload } from './events';
import {
  requestNames,
  requests,
  type RequestInput,
  type RequestName,
  type RequestOutput,
  type RequestProgress,
  type ValidInput,
} from './requests';

/** How a caller follows and ends a call (jobs.ts). */
export interface CallOptions<N extends RequestName> {
  /** Aborting it cancels the call: the host stops its work, and the promise rejects with code 'cancelled'. */
  signal?: AbortSignal;
  /** A job's progress, or a subscription's items, as they come. */
  onProgress?: (progress: RequestProgress<N>) => void;
}

/**
 * The one way the UI talks to the app core, whatever carries it: Electron IPC (the preload exposes
 * an object of this shape as `window.nodescope`), a WebSocket (browser mode) or memory (tests).
 * request rejects with a ContractError carrying the host's code, message and next step.
 */
export interface Bridge {
  request<N extends RequestName>(name: N, input: RequestInput<N>, options?: CallOptions<N>): Promise<RequestOutput<N>>;
  /** Subscribes; returns the function that unsubscribes. */
  on<E extends EventName>(event: E, handler: (payload: EventPayload<E>) => void): () => void;
}

/**
 * Electron's IPC channels, prefixed so they never clash with anything else on the IPC bus: the page sends
 * its call frames (jobs.ts) on `nodescope:call`, main answers with frames on `nodescope:frame`.
 */
export const CALL_CHANNEL = 'nodescope:call';
export const FRAME_CHANNEL = 'nodescope:frame';

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
 * Progress the app core validates where it makes it, once: a node's pod batches (pods.watch), as each batch
 * is made (app/core/node-pods.ts). A host passes them on as they are, rather than parsing every batch of
 * rows again for each window that watches the node.
 */
const PROGRESS_VALIDATED_WHERE_MADE: ReadonlySet<RequestName> = new Set<RequestName>(['pods.watch']);

/** Host side: checks a job's progress (or a subscription's item) before it goes to its caller. */
export function validateProgress<N extends RequestName>(name: N, progress: unknown): RequestProgress<N> {
  if (PROGRESS_VALIDATED_WHERE_MADE.has(name)) return progress as RequestProgress<N>;
  const schema = (requests[name] as { progress?: z.ZodType }).progress;
  if (!schema) throw new ContractError('invalid-output', `${name} sends no progress.`);
  const parsed = schema.safeParse(progress);
  if (!parsed.success) throw new ContractError('invalid-output', `The app sent invalid ${name} progress: ${describeIssues(parsed.error)}.`);
  return parsed.data as RequestProgress<N>;
}

/** Host side: checks a handler's output so a bug shows up as a clear error, not a broken view. */
export function validateOutput<N extends RequestName>(name: N, output: unknown): RequestOutput<N> {
  const parsed = requests[name].output.safeParse(output);
  if (!parsed.success) {
    throw new ContractError('invalid-output', `The app returned an invalid ${name} result: ${describeIssues(parsed.error)}.`);
  }
  return parsed.data as RequestOutput<N>;
}
