/**
 * A bad command line: the one usage error of every command. A module of its own so that commands that load
 * little (decode, sim) need not load the node options.
 */
import { NodescopeError } from '../util/nodescope-error';

export class UsageError extends NodescopeError<'USAGE'> {
  override readonly name = 'UsageError';
  readonly exitClass = 'usage';
  constructor(message: string) {
    super('USAGE', message, undefined);
  }
}
