import { NodescopeError } from '../util/nodescope-error';

/**
 * A field mask the kubelet would reject with INVALID_ARGUMENT. Carries where the problem is, so the
 * mask box can point at it and the simulator can answer with the same words the client shows.
 */
export class FieldMaskError extends NodescopeError<'BAD_MASK'> {
  readonly exitClass = 'usage';
  constructor(
    message: string,
    /** The offending path as written (trimmed), or '' when the problem is the mask as a whole. */
    readonly path: string,
    /** The offending segment of that path, or '' when the problem is not one segment. */
    readonly segment: string,
    /** 0-based character offset of the problem in the mask text. */
    readonly position: number,
  ) {
    super('BAD_MASK', message, undefined);
    this.name = 'FieldMaskError';
  }
}
