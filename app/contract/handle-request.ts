import { validateOutput, validateRequest } from './bridge';
import { errorResult, type RequestResult } from './errors';
import type { RequestName, RequestOutput, ValidInput } from './requests';

/** The app core's side of the contract: one handler per request, given validated input. */
export type RequestHandlers = {
  [N in RequestName]: (input: ValidInput<N>) => Promise<RequestOutput<N>> | RequestOutput<N>;
};

/**
 * What every host (Electron main, the browser-mode server, the fake bridge) does with an incoming
 * request: validate name and input, run the handler, validate its output, and wrap the outcome in a
 * RequestResult. Never throws.
 */
export async function handleRequest(
  handlers: Partial<RequestHandlers>,
  name: unknown,
  input: unknown,
): Promise<RequestResult> {
  try {
    const valid = validateRequest(name, input);
    const requestName = name as RequestName;
    const handler = handlers[requestName] as ((input: unknown) => unknown) | undefined;
    if (!handler) return { ok: false, error: { code: 'not-implemented', message: `${requestName} is not available here.` } };
    const output = await handler(valid);
    return { ok: true, value: validateOutput(requestName, output) };
  } catch (err) {
    return errorResult(err);
  }
}
