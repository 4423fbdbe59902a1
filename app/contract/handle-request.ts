import { validateOutput, validateProgress, validateRequest } from './bridge';
import { ContractError, errorResult, type RequestResult } from './errors';
import { CANCELLED_BY_CALLER } from './jobs';
import type { RequestName, RequestOutput, RequestProgress, ValidInput } from './requests';

/** What a handler knows of the call it answers (jobs.ts). */
export interface CallContext<P = unknown> {
  /** Aborted when the caller cancels, or its window or connection goes away: the work stops then. */
  readonly signal: AbortSignal;
  /** Sends progress (a job's) or an item (a subscription's) to this caller only. */
  progress(progress: P): void;
  /** The caller's window or connection: aborted when it goes, so what is kept for it can go too. */
  readonly caller: AbortSignal;
}

/** The app core's side of the contract: one handler per request, given validated input. */
export type RequestHandlers = {
  [N in RequestName]: (input: ValidInput<N>, call: CallContext<RequestProgress<N>>) => Promise<RequestOutput<N>> | RequestOutput<N>;
};

/** A call nobody can cancel and whose progress goes nowhere (a test, a host's own request). */
export const detachedCall = (): CallContext => ({ signal: new AbortController().signal, progress() {}, caller: new AbortController().signal });

/**
 * What every host (Electron main, the browser-mode server, the fake bridge) does with an incoming
 * request: validate name and input, run the handler, validate its progress and output, and wrap the
 * outcome in a RequestResult. Never throws.
 */
export async function handleRequest(
  handlers: Partial<RequestHandlers>,
  name: unknown,
  input: unknown,
  call: CallContext = detachedCall(),
): Promise<RequestResult> {
  let forward: (() => void) | undefined;
  try {
    const valid = validateRequest(name, input);
    const requestName = name as RequestName;
    const handler = handlers[requestName] as ((input: unknown, call: CallContext) => unknown) | undefined;
    if (!handler) return { ok: false, error: { code: 'not-implemented', message: `${requestName} is not available here.` } };
    // Progress the contract refuses (an app bug, or what a node sent) fails its call and stops its work. It
    // must not throw where the work sent it: from a stream's data listener or a timer, that ends the process.
    // (One controller the caller's signal is forwarded to: AbortSignal.any cost kilobytes per call.)
    const work = new AbortController();
    forward = () => work.abort(call.signal.reason);
    if (call.signal.aborted) forward();
    else call.signal.addEventListener('abort', forward, { once: true });
    let refuse!: (err: unknown) => void;
    const refused = new Promise<never>((_, reject) => (refuse = reject));
    const progress = (p: unknown) => {
      if (work.signal.aborted) return;
      try {
        call.progress(validateProgress(requestName, p));
      } catch (err) {
        work.abort(err);
        refuse(err);
      }
    };
    const output = await Promise.race([handler(valid, { ...call, signal: work.signal, progress }), refused]);
    return { ok: true, value: validateOutput(requestName, output) };
  } catch (err) {
    // Whatever the work threw on its way out (an AbortError, a closed stream), a cancelled call was cancelled.
    if (call.signal.aborted && !(err instanceof ContractError && err.code === 'cancelled')) return errorResult(new ContractError('cancelled', CANCELLED_BY_CALLER));
    return errorResult(err);
  } finally {
    if (forward) call.signal.removeEventListener('abort', forward);
  }
}
