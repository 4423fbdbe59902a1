/**
 * A recording's pod set at any instant: the initial set with every event up to that instant applied.
 * Checkpoints every few thousand events keep a lookup from replaying a long recording from its start.
 */
import type { DecodedPod, PodObject } from '../pod/pod-tree';

export interface TimelineEvent {
  time: number;
  type: 'ADDED' | 'MODIFIED' | 'DELETED';
  pod: DecodedPod;
}

const CHECKPOINT_EVERY = 4096;

export const uidOf = (p: DecodedPod): string => String((p.pod.metadata as PodObject | undefined)?.uid ?? '');

function apply(set: Map<string, DecodedPod>, e: TimelineEvent): void {
  if (e.type === 'DELETED') set.delete(uidOf(e.pod));
  else set.set(uidOf(e.pod), e.pod);
}

/** `events` in arrival order (times never decrease). Returns podsAt(time): the pods held at `time`, the initial set before the first event. */
export function recordingTimeline(initial: DecodedPod[], events: TimelineEvent[]): (time: number) => DecodedPod[] {
  const checkpoints: Map<string, DecodedPod>[] = [];
  const set = new Map(initial.map((p) => [uidOf(p), p]));
  checkpoints.push(new Map(set));
  for (let i = 0; i < events.length; i++) {
    apply(set, events[i]!);
    if ((i + 1) % CHECKPOINT_EVERY === 0) checkpoints.push(new Map(set));
  }
  return (time) => {
    // How many events arrived at or before `time`.
    let lo = 0;
    let hi = events.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (events[mid]!.time <= time) lo = mid + 1;
      else hi = mid;
    }
    const base = Math.floor(lo / CHECKPOINT_EVERY);
    const at = new Map(checkpoints[base]!);
    for (let i = base * CHECKPOINT_EVERY; i < lo; i++) apply(at, events[i]!);
    return [...at.values()];
  };
}
