import type { NodeLink, NodeLinkRequest } from './node-link';
import type { DecodedPod, PodTree } from '../pod/pod-tree';
import { recordingTimeline } from '../recording/recording-timeline';
import { Churn } from '../sim/churn';
import { PodGenerator } from '../sim/pod-generator';
import { PodStore } from '../sim/pod-store';
import type { PodEventType, RecordingSource } from './core-types';

export interface SimulatedSourceOptions {
  pods: number;
  churnPerSecond: number;
  seed: number;
  nodeName: string;
  /** Pods the source sent but could not show, as a node with an undecodable pod reports them. */
  leftOut?: string[];
}

/**
 * A live source in memory: the simulator's pods and churn, handed to the core without a kubelet, a
 * socket or protobuf. The design preview runs the real core over it; the app's demo node serves the
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
  events.state({ phase: 'live', since: Date.now(), ...(options.leftOut?.length ? { leftOut: options.leftOut } : {}) });
  churn.start();
  return {
    close() {
      churn.stop();
      unsubscribe();
      return Promise.resolve();
    },
  };
}

const decoded = (pod: PodTree): DecodedPod => ({ pod, unknownFields: [] });

/**
 * A recording of the simulator, made in memory: its pods at `start`, then `changes` churn events one
 * every `everyMs`. For the design preview, which has no files.
 */
export function simulatedRecording(options: { pods: number; changes: number; everyMs: number; seed: number; nodeName: string; start: number; file: string }): RecordingSource {
  let time = options.start;
  const generator = new PodGenerator({ seed: options.seed, nodeName: options.nodeName });
  const store = new PodStore(Array.from({ length: options.pods }, () => generator.existing(time)));
  const churn = new Churn(store, { seed: options.seed + 1, perSecond: 0, generator, clock: () => time });
  const initial = store.list().map(decoded);
  const events: { time: number; type: PodEventType; pod: DecodedPod }[] = [];
  store.subscribe((e) => events.push({ time, type: e.type, pod: decoded(e.type === 'DELETED' ? (e.previous ?? e.pod) : e.pod) }));
  for (let i = 1; i <= options.changes; i++) {
    time = options.start + i * options.everyMs;
    churn.step(1);
  }
  const name = options.file.split('/').pop()!;
  return {
    kind: 'recording',
    file: options.file,
    label: name,
    takenAt: options.start,
    origin: `${options.nodeName} · ${name}`,
    start: options.start,
    end: time,
    initial,
    events,
    podsAt: recordingTimeline(initial, events),
  };
}
