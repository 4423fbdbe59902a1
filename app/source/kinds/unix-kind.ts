import type { SourceKindInfo } from './source-kind';

/** The CLI's prefix of a socket on this machine (`unix:PATH`, as grpc-js's UDS resolver spells it). */
export const UNIX_SCHEME = 'unix:';

/** A Pods API socket on this machine: the simulator, or Nodescope run on the node itself. */
export const UNIX_KIND: SourceKindInfo<'unix'> = {
  kind: 'unix',
  defaultLabel: (spec) => `${UNIX_SCHEME}${spec.socketPath}`,
  describe: (spec) => `Pods API socket on this machine: ${spec.socketPath}`,
  userAdded: true,
  offline: false,
  simulated: false,
  capabilities: ['logs', 'nodeInfo'],
  group: (spec) => spec.group ?? '',
  cliSource: (spec) => [`${UNIX_SCHEME}${spec.socketPath}`],
  sameSource: (a, b) => a.socketPath === b.socketPath,
  // A socket here is this machine, whatever its path.
  sameMachine: () => true,
  addAgain: 'add',
};
