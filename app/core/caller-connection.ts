import {
  ClientFrameSchema,
  ContractError,
  errorResult,
  handleRequest,
  validateEvent,
  type RequestHandlers,
  type ServerFrame,
} from '../contract';
import { isNodeWatchEvent, type AppEvent } from './app-event';

/** The part of the app core one window talks to. */
export interface BridgeCore {
  handlers: Partial<RequestHandlers>;
  subscribe(listener: (event: AppEvent) => void): () => void;
}

export interface CallerConnection {
  /** A frame from the caller; false when it is no call frame (the transport then ends the connection). Once closed, requests are ignored. */
  receive(frame: unknown): boolean;
  /** The window or connection went away: every call of it is cancelled, its events stop. */
  close(): void;
}

/**
 * Calls one window may have open at once: a watch per node of a big fleet is well under it. Each open call
 * holds a few KB, so a page that never ends its calls (a bug, a hostile local client) would otherwise grow
 * the process every node's session lives in without bound.
 */
const MAX_OPEN_CALLS = 20_000;

/**
 * One window's side of the call frames (app/contract/jobs.ts), whatever carries them: the browser-mode
 * WebSocket (app/ui-server/bridge-socket.ts) or Electron's IPC (main/ipc-binding.ts). Each request runs
 * with a signal its caller's cancel frame aborts, and so does the window going away; a call's progress
 * goes to this caller only, and none once the call is over. Events are validated at the boundary.
 */
export function openCallerConnection(
  core: BridgeCore,
  send: (frame: ServerFrame) => void,
  log: (message: string) => void = (message) => console.error(`nodescope: ${message}`),
  { maxOpenCalls = MAX_OPEN_CALLS }: { maxOpenCalls?: number } = {},
): CallerConnection {
  const calls = new Map<number, AbortController>();
  const connection = new AbortController();

  const unsubscribe = core.subscribe((event) => {
    // A node's pod batches and feed lines go to the windows that watch it (pods.watch), not to every window.
    if (isNodeWatchEvent(event)) return;
    try {
      send({ type: 'event', name: event.name, payload: validateEvent(event.name, event.payload) });
    } catch (err) {
      // An app-core bug must not reach the UI as a malformed event; say where it came from instead.
      log(`dropped ${event.name} event: ${err instanceof Error ? err.message : String(err)}`);
    }
  });

  const call = (id: number, name: string, input: unknown) => {
    // A closed connection starts nothing: its subscription would live on with nobody to cancel it.
    if (connection.signal.aborted) return;
    if (calls.size >= maxOpenCalls && !calls.has(id)) {
      const error = new ContractError(
        'too-many-calls',
        `This window has ${maxOpenCalls} calls open, the most Nodescope serves one window: ${name} was not started.`,
        'Reload the page; if it happens again, the page is not ending its calls: report it.',
      );
      send({ type: 'response', id, result: errorResult(error) });
      return;
    }
    // A reused id is the caller's bug: the older call is cancelled rather than left unanswerable.
    calls.get(id)?.abort(new ContractError('cancelled', 'A newer request reused this id.'));
    const work = new AbortController();
    calls.set(id, work);
    const context = {
      signal: work.signal,
      caller: connection.signal,
      stop: (reason: unknown) => work.abort(reason),
      progress: (progress: unknown) => {
        if (calls.get(id) === work) send({ type: 'progress', id, progress });
      },
    };
    void handleRequest(core.handlers, name, input, context).then((result) => {
      if (calls.get(id) !== work) return;
      calls.delete(id);
      if (connection.signal.aborted) return;
      try {
        send({ type: 'response', id, result });
      } catch (err) {
        // An answer the transport cannot carry (a BigInt or a cycle through JSON) is an app bug: the call is
        // still answered, not left waiting, and the failure is not an unhandled rejection.
        const why = err instanceof Error ? err.message : String(err);
        log(`could not send the answer to ${name}: ${why}`);
        send({ type: 'response', id, result: errorResult(new ContractError('internal', `Nodescope could not send the answer to ${name}: ${why}.`, 'Try again; if it happens again, report it.')) });
      }
    });
  };

  return {
    receive(data) {
      const parsed = ClientFrameSchema.safeParse(data);
      if (!parsed.success) return false;
      const frame = parsed.data;
      if (frame.type === 'request') call(frame.id, frame.name, frame.input);
      else {
        const work = calls.get(frame.id);
        calls.delete(frame.id);
        work?.abort(new ContractError('cancelled', 'Its window cancelled it.'));
      }
      return true;
    },
    close() {
      if (connection.signal.aborted) return;
      unsubscribe();
      const gone = new ContractError('cancelled', 'Its window went away.');
      for (const work of calls.values()) work.abort(gone);
      calls.clear();
      connection.abort(gone);
    },
  };
}
