import { describe, expect, it } from 'vitest';
import type { DecodedPod } from '../pod/pod-tree';
import { Prng } from '../sim/prng';
import { recordingTimeline, uidOf, type TimelineEvent } from './recording-timeline';

const pod = (uid: string, v: number): DecodedPod => ({ pod: { metadata: { uid }, status: { v } }, unknownFields: [] });
const state = (pods: DecodedPod[]) => Object.fromEntries(pods.map((p) => [uidOf(p), (p.pod.status as { v: number }).v]));

describe('a recording timeline', () => {
  it('gives the pod set at any instant of a long recording, across its checkpoints, as replaying every event would', () => {
    const rng = new Prng(3);
    const initial = Array.from({ length: 50 }, (_, i) => pod(`p${i}`, 0));
    const events: TimelineEvent[] = [];
    let time = 1000;
    for (let i = 0; i < 10_000; i++) {
      time += Math.floor(rng.next() * 3); // several events share a millisecond
      const uid = `p${Math.floor(rng.next() * 60)}`;
      events.push({ time, type: rng.next() < 0.1 ? 'DELETED' : 'MODIFIED', pod: pod(uid, i + 1) });
    }
    const podsAt = recordingTimeline(initial, events);
    const replay = (t: number) => {
      const set = new Map(initial.map((p) => [uidOf(p), p]));
      for (const e of events) {
        if (e.time > t) break;
        if (e.type === 'DELETED') set.delete(uidOf(e.pod));
        else set.set(uidOf(e.pod), e.pod);
      }
      return state([...set.values()]);
    };
    for (const t of [0, 1000, events[4095]!.time, events[4096]!.time, events[8191]!.time + 1, time, time + 5000]) {
      expect(state(podsAt(t)), `at ${t}`).toEqual(replay(t));
    }
    expect(state(podsAt(999))).toEqual(state(initial));
  });
});
