/** A node over SSH, Node side: `ssh://` or any other destination on the command line, the kubelet link over SSH in the app. */
import { editNodeWith } from '../../host/app-next-step';
import { POD_RESOURCES_SOCKET } from '../../podresources/pod-resources-socket';
import type { SourceKindNode } from '../source-registry';
import { SSH_SCHEME, sshDestination } from '../ssh-destination';

export const SSH_SOURCE: SourceKindNode<{ kind: 'ssh'; host: string }> = {
  kind: 'ssh',
  // Docker's ssh://[user@]host[:port], resolved with ssh_config like any destination (ssh-destination.ts).
  argument: { scheme: SSH_SCHEME, takesTheRest: true, parse: (arg) => ({ kind: 'ssh', host: arg }) },
  host: (context) => ({
    openLink: (request) => {
      const { spec } = request;
      const auto = spec.kind === 'ssh' && spec.api === 'auto';
      return context.kubeletLink(request, {
        // What the node's settings would change, so the metrics pane says which one.
        noRest: auto
          ? `Read through the Pods API socket (auto found one), which has no CPU, memory or probe results: to see them, ${editNodeWith('Kubelet API “REST API”')}.`
          : `Read through the Pods API, which has no CPU, memory or probe results: to see them, ${editNodeWith('Kubelet API “REST API” (or “Auto”)')}.`,
        noPodResources: `Devices come from the PodResources API: to see them, ${editNodeWith(`its “PodResources socket” (usually ${POD_RESOURCES_SOCKET})`)}.`,
      });
    },
  }),
  connect: async (source, opts, shared) => (await import('../../cli/kubelet-connection')).connectOverSsh({ ...opts, node: source.host }, shared),
  // ssh://user@host:port carries its settings; a plain name may be an ssh_config pattern to expand.
  ui: (source) => (source.host.startsWith(SSH_SCHEME) ? { add: { kind: 'ssh', ...sshDestination(source.host) } } : { expand: source.host, node: (host) => ({ kind: 'ssh', host }) }),
  // The node's log files are root-only: read with fixed commands over the session (app/logs/node-file-access.ts).
  logs: {
    from: 'node files',
    open: async (source, opts) => {
      const [{ openNodeAccess }, { openNodeSession }, { printError }] = await Promise.all([import('../node-access'), import('../../cli/kubelet-connection'), import('../../cli/terminal-text')]);
      const node = await openNodeSession({ ...opts, node: source.host });
      // -v shows every command run on the node.
      const announce = opts.verbose ? (command: string) => printError(`nodescope: running on the node: ${command}`) : undefined;
      try {
        return { access: (await openNodeAccess(node.session, { node: source.host, sudo: opts.sudo, ...(announce ? { announce } : {}) })).files, close: node.close };
      } catch (err) {
        node.close();
        throw err;
      }
    },
  },
};
