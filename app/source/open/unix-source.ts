/** A Pods API socket on this machine, Node side: `unix:PATH` on the command line, the kubelet link to that socket in the app. */
import { UsageError } from '../../cli/usage-error';
import { editNodeWith } from '../../host/app-next-step';
import { UNIX_SCHEME } from '../kinds/unix-kind';
import type { SourceKindNode } from '../source-registry';

export const UNIX_SOURCE: SourceKindNode<{ kind: 'unix'; path: string }> = {
  kind: 'unix',
  argument: {
    scheme: UNIX_SCHEME,
    parse(arg) {
      // unix:///PATH as grpc-js spells it, or unix:PATH.
      const path = arg.slice(UNIX_SCHEME.length).replace(/^\/\/(?=\/)/, '');
      if (!path.startsWith('/')) throw new UsageError(`unix: needs an absolute socket path, e.g. unix:/run/pods.sock, got '${arg}'`);
      return { kind: 'unix', path };
    },
  },
  host: (context) => ({
    openLink: (request) =>
      context.kubeletLink(request, {
        ...(request.spec.kind === 'unix' ? { localSocket: request.spec.socketPath } : {}),
        noRest: `Read through the Pods API, which has no CPU, memory or probe results: to see them, ${editNodeWith('Kubelet API “REST API” (or “Auto”)')}.`,
      }),
  }),
  connect: async (source, opts) => (await import('../../cli/kubelet-connection')).connectToLocalSocket({ ...opts, local: source.path }),
  ui: (source) => ({ add: { kind: 'unix', socketPath: source.path } }),
  // The node is this machine (the simulator, or Nodescope on the node itself): its log files are read here.
  logs: {
    from: 'node files',
    open: async (_source, opts) => ({ access: (await (await import('../node-access')).openNodeAccess(undefined, { node: opts.node, sudo: false })).files, close: () => {} }),
  },
};
