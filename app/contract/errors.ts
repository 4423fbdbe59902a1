import { z } from 'zod';
import { NodescopeError } from '../util/nodescope-error';

/**
 * Every request answers with a result envelope instead of a thrown error, because Electron's
 * IPC and a WebSocket both flatten exceptions into a bare string: the envelope keeps
 * the code and the next step the user should take.
 */
export const ErrorInfoSchema = z.object({
  /** Stable, machine-readable: 'invalid-input', 'unknown-request', 'not-found', 'ssh', ... */
  code: z.string().min(1),
  /** What went wrong, in a sentence the UI can show as is. */
  message: z.string(),
  /** The next step, when there is one ("Check the socket path in the node settings"). */
  nextStep: z.string().optional(),
  /** The input field the error is about (e.g. 'path'), so a form can highlight it. */
  field: z.string().optional(),
});
export type ErrorInfo = z.infer<typeof ErrorInfoSchema>;

export const RequestResultSchema = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), value: z.unknown() }),
  z.object({ ok: z.literal(false), error: ErrorInfoSchema }),
]);
export type RequestResult<T = unknown> = { ok: true; value: T } | { ok: false; error: ErrorInfo };

/** An error that carries its code and next step across the bridge. */
export class ContractError extends NodescopeError {
  /** The bridge's own failures (a bad request, a closed connection) are no user's command line. */
  readonly exitClass = 'internal';
  readonly field: string | undefined;
  constructor(code: string, message: string, nextStep?: string, field?: string) {
    super(code, message, nextStep);
    this.name = 'ContractError';
    this.field = field;
  }

  toInfo(): ErrorInfo {
    return {
      code: this.code,
      message: this.message,
      ...(this.nextStep === undefined ? {} : { nextStep: this.nextStep }),
      ...(this.field === undefined ? {} : { field: this.field }),
    };
  }
}

/**
 * Host side: turns whatever a handler threw into a result the other side can show. Every NodescopeError
 * (SSH, kubelet, files, ...) carries its next step; it crosses the bridge with the message.
 */
export function errorResult(err: unknown): RequestResult<never> {
  if (err instanceof ContractError) return { ok: false, error: err.toInfo() };
  const message = err instanceof Error ? err.message : String(err);
  const nextStep = err instanceof NodescopeError ? err.nextStep : undefined;
  return { ok: false, error: { code: 'internal', message, ...(nextStep ? { nextStep } : {}) } };
}

/** UI side: the value of a successful result, or a ContractError rebuilt from a failed one. */
export function unwrapResult<T>(result: RequestResult<T>): T {
  if (result.ok) return result.value;
  throw new ContractError(result.error.code, result.error.message, result.error.nextStep, result.error.field);
}
