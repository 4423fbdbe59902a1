/** A node over SSH, Node side: `ssh://` or any other destination on the command line, the kubelet link over SSH in the app. */
import { editNodeWith } from '../../host/app-next-step';
import { POD_RESOURCES_SOCKET } from '../../podresources/pod-resources-socket';
import type { SourceKindNode } from '../source-registry';
import { SSH_SCHEME } from '../ssh-destination';

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
};
