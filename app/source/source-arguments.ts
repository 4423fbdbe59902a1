/**
 * What a `nodescope` command's SOURCE names, as the source kinds registered by scheme read it
 * (app/source/source-registry.ts; README, "Sources"), as grpc-js picks a resolver: the kinds whose scheme
 * the argument spells, then those without a scheme (a pod file), then the one that takes the rest (an SSH
 * destination). A new kind the CLI can name is its registration, not a line here.
 */
import { UsageError } from '../cli/usage-error';
import { argumentKinds, type KindArgument } from './source-registry';

/**
 * What a SOURCE argument names, for the built-in kinds: an SSH destination, a socket on this machine, or a pod
 * file (snapshot or recording). A kind registered beside them gives arguments of its own `kind`, which
 * connectToSource (app/cli/kubelet-connection.ts) hands back to that kind.
 */
export type SourceArgument = { kind: 'ssh'; host: string } | { kind: 'unix'; path: string } | { kind: 'file'; path: string };

/** What a SOURCE argument names; `local` (--local PATH) is a socket on this machine whatever the argument. */
export function parseSourceArgument(arg: string, local?: string): SourceArgument {
  if (local !== undefined) return { kind: 'unix', path: local };
  const kinds = argumentKinds();
  const tried = [
    ...kinds.filter((kind) => kind.scheme !== undefined && arg.startsWith(kind.scheme)),
    ...kinds.filter((kind) => kind.scheme === undefined && !kind.takesTheRest),
    ...kinds.filter((kind) => kind.takesTheRest),
  ];
  for (const kind of tried) {
    const parsed: KindArgument | undefined = kind.parse(arg);
    // Narrowed by the built-in kinds' names; any other's argument goes back to its own kind as it is.
    if (parsed) return parsed as SourceArgument;
  }
  throw new UsageError(`'${arg}' names no source: give an SSH destination, unix:PATH or a pod file.`);
}
