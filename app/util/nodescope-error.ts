/**
 * The one error currency: every failure the user can act on says what went wrong (message), a stable `code`,
 * the next step, and which kind of failure it is, so the CLI's exit code, the UI's text and the contract's
 * envelope are read from the error itself instead of from lists of error classes kept by each caller.
 * Browser-safe (no Node imports): the contract and the renderer use it.
 */

/** The kinds of failure; the CLI maps each to one exit code (app/cli/exit-codes.ts). */
export type ExitClass =
  /** A bad command line, setting or input file: the user must change what they gave. */
  | 'usage'
  /** SSH, a socket or the network path could not be used. */
  | 'connection'
  /** The kubelet answered with an error, or took a call and never answered it. */
  | 'api'
  /** Data could not be decoded. */
  | 'data'
  /** Output could not be written or delivered. */
  | 'io'
  | 'internal';

export abstract class NodescopeError<Code extends string = string> extends Error {
  readonly code: Code;
  /** The next step for the user, one sentence; undefined when there is none to give. */
  readonly nextStep: string | undefined;
  /** Which kind of failure this is (a getter where it depends on the code). */
  abstract readonly exitClass: ExitClass;

  constructor(code: Code, message: string, nextStep: string | undefined, options?: { cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.nextStep = nextStep;
  }
}

export function isNodescopeError(err: unknown): err is NodescopeError {
  return err instanceof NodescopeError;
}
