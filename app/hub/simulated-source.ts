import type { NodeLink, NodeLinkRequest } from '../inspector/node-link';
import { Churn } from '../sim/churn';
import { PodGenerator } from '../sim/pod-generator';
import { PodStore } from '../sim/pod-store';

export interface SimulatedSourceOptions {
  pods: number;
  churnPerSecond: number;
  seed: number;
  nodeName: string;
}

/**
 * A live source in memory: the simulator's pods and churn, handed to the hub without a kubelet, a
 * socket or protobuf. The design preview runs the real hub over it; the app's demo node serves the
 * same simulator through a real socket instead.
 */
export function openSimulatedLink(request: NodeLinkRequest, options: SimulatedSourceOptions): NodeLink {
  const generator = new PodGenerator({ seed: options.seed, nodeName: options.nodeName });
  const now = Date.now();
  const store = new PodStore(Array.from({ length: options.pods }, () => generator.existing(now)));
  const churn = new Churn(store, { seed: options.seed + 1, perSecond: options.churnPerSecond, generator });
  const { events } = request;
  events.state({ phase: 'connecting', attempt: 1 });
  const unsubscribe = store.subscribe((event) => {
    // Like the kubelet client: a deletion carries the pod as last held, not the identity-only tombstone.
    const pod = event.type === 'DELETED' ? (event.previous ?? event.pod) : event.pod;
    events.change(event.type, { pod, unknownFields: [] });
  });
  events.reset(store.list().map((pod) => ({ pod, unknownFields: [] })));
  events.state({ phase: 'live', since: Date.now() });
  churn.start();
  return {
    close() {
      churn.stop();
      unsubscribe();
      return Promise.resolve();
    },
  };
}
