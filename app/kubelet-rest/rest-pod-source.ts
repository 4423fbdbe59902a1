/**
 * A pod source over the kubelet's REST API, shaped like a NodeLink (state / reset / change), so the
 * app core can show a node read through REST as it shows one read through the Pods API: the polling
 * watch converges like the Pods API watch (reset after every sync, change for each live difference).
 */
import type { KubeletClient } from '../kubelet/kubelet-client';
import { startPodWatch, type PodWatchOptions } from '../kubelet/pod-watch';
import { nodeStateOf } from '../inspector/kubelet-node-link';
import type { NodeLink, NodeLinkEvents } from '../inspector/node-link';

export function startRestPodSource(client: KubeletClient, events: NodeLinkEvents, options: PodWatchOptions = {}): NodeLink {
  let closed = false;
  const watch = startPodWatch(
    client,
    {
      state: (s) => {
        const state = nodeStateOf(s);
        if (state && !closed) events.state(state);
      },
      synced: (pods) => !closed && events.reset(pods),
      change: ({ type, pod }) => !closed && events.change(type, pod),
    },
    options,
  );
  return {
    async close() {
      closed = true;
      await watch.close();
    },
  };
}
