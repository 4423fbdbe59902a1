import { describe, expect, it, vi } from 'vitest';
import type { PodObject, PodTree } from '../pod/pod-tree';
import { Churn } from './churn';
import { PodGenerator } from './pod-generator';
import { type PodEvent, PodStore } from './pod-store';
import { containerStatuses, findCondition } from './pod-status';
import { SharedTicker } from './shared-ticker';

const start = Date.parse('2026-11-21T06:00:00Z');

/** A store of `pods` generated pods and a churn on it driven by a fake clock. */
function setup(seed: number, pods = 200) {
  const generator = new PodGenerator({ seed, nodeName: 'worker-1' });
  const store = new PodStore(Array.from({ length: pods }, () => generator.existing(start)));
  let now = start;
  const churn = new Churn(store, { seed, perSecond: 100, generator, clock: () => now });
  return { store, churn, advance: (ms: number) => (now += ms) };
}

/** Runs `steps` changes, one every 10 ms of fake time, collecting the events with the pod before each. */
function run(steps: number, s: ReturnType<typeof setup>) {
  const log: { event: PodEvent; before: PodTree | undefined; at: number }[] = [];
  for (let i = 0; i < steps; i++) {
    const at = s.advance(10);
    const uidBefore = new Map(s.store.list().map((p) => [(p.metadata as PodObject).uid as string, p]));
    const [event] = s.churn.step(1);
    log.push({ event: event!, before: uidBefore.get(event!.uid), at });
  }
  return log;
}

const meta = (p: PodTree) => p.metadata as PodObject;

describe('Churn', () => {
  it('replays the same changes for the same seed', () => {
    const a = run(500, setup(7));
    const b = run(500, setup(7));
    expect(b.map((x) => x.event)).toEqual(a.map((x) => x.event));
    const c = run(500, setup(8));
    expect(c.map((x) => x.event.uid)).not.toEqual(a.map((x) => x.event.uid));
  });

  it('produces readiness flaps, restarts, phase changes, creations and graceful deletions', () => {
    const s = setup(3);
    const log = run(3000, s);
    const flaps = log.filter(({ event, before }) => {
      if (event.type !== 'MODIFIED' || !before) return false;
      const was = findCondition(before, 'Ready')?.status;
      return was !== findCondition(event.pod, 'Ready')?.status;
    });
    expect(flaps.length).toBeGreaterThan(100);
    // A flip stamps the transition with the time it happened.
    for (const { event, at } of flaps) {
      expect(Date.parse(findCondition(event.pod, 'Ready')!.lastTransitionTime as string)).toBe(Math.floor(at / 1000) * 1000);
    }

    const restarts = log.filter(({ event, before }) => {
      if (event.type !== 'MODIFIED' || !before) return false;
      const total = (p: PodTree) => containerStatuses(p).reduce((n, c) => n + (c.restartCount as number), 0);
      return total(event.pod) === total(before) + 1;
    });
    expect(restarts.length).toBeGreaterThan(20);
    for (const { event, before } of restarts) {
      const changed = containerStatuses(event.pod).find((c, i) => c.restartCount !== containerStatuses(before!)[i]!.restartCount)!;
      expect((changed.lastState as PodObject).terminated).toBeDefined();
      expect((before!.spec as PodObject).restartPolicy).not.toBe('Never');
    }

    const started = log.filter(({ event, before }) => event.type === 'MODIFIED' && before && (before.status as PodObject).phase === 'Pending' && (event.pod.status as PodObject).phase === 'Running');
    expect(started.length).toBeGreaterThan(5);
    for (const { event } of started) expect((event.pod.status as PodObject).podIP).toEqual(expect.any(String));
    const finished = log.filter(({ before, event }) => event.type === 'MODIFIED' && before && (before.status as PodObject).phase === 'Running' && ['Succeeded', 'Failed'].includes((event.pod.status as PodObject).phase as string));
    expect(finished.length).toBeGreaterThan(0);

    const added = log.filter(({ event }) => event.type === 'ADDED');
    expect(added.length).toBeGreaterThan(50);
    for (const { event, at } of added) {
      expect(meta(event.pod).creationTimestamp).toBe(new Date(Math.floor(at / 1000) * 1000).toISOString().replace('.000Z', 'Z'));
      expect((event.pod.status as PodObject).phase).toBe('Pending');
    }

    const marked = log.filter(({ event, before }) => event.type === 'MODIFIED' && before && meta(before).deletionTimestamp === undefined && meta(event.pod).deletionTimestamp !== undefined);
    expect(marked.length).toBeGreaterThan(30);
    const deleted = log.filter(({ event }) => event.type === 'DELETED');
    expect(deleted.length).toBeGreaterThan(30);
    for (const { event, before, at } of deleted) {
      expect(event.pod).toEqual({ metadata: { name: meta(before!).name, namespace: meta(before!).namespace, uid: event.uid } });
      // Removed only once the grace period is over, never before.
      expect(at).toBeGreaterThanOrEqual(Date.parse(meta(before!).deletionTimestamp as string));
    }
    // Creations and deletions keep the pods that are not terminating around the starting population.
    const staying = s.store.list().filter((p) => meta(p).deletionTimestamp === undefined).length;
    expect(staying).toBeGreaterThan(150);
    expect(staying).toBeLessThan(250);
  });

  it('keeps the store consistent with the events it reports', () => {
    const s = setup(11, 50);
    const mirror = new Map(s.store.list().map((p) => [meta(p).uid as string, p]));
    for (const { event } of run(1000, s)) {
      if (event.type === 'DELETED') mirror.delete(event.uid);
      else mirror.set(event.uid, event.pod);
    }
    expect([...mirror.keys()].sort()).toEqual(s.store.list().map((p) => meta(p).uid));
    for (const p of s.store.list()) expect(mirror.get(meta(p).uid as string)).toBe(p);
  });

  it('finishes a graceful deletion someone else started, once its grace period is over', () => {
    const s = setup(4, 30);
    const target = s.store.list().find((p) => meta(p).deletionTimestamp === undefined)!;
    const deadline = s.advance(0) + 2000;
    s.store.apply({ op: 'update', pod: { ...target, metadata: { ...meta(target), deletionTimestamp: new Date(deadline).toISOString().replace('.000Z', 'Z'), deletionGracePeriodSeconds: 2 } } });
    const before = run(150, s).filter(({ event }) => event.uid === meta(target).uid && event.type === 'DELETED');
    expect(before).toHaveLength(0); // 1.5 s of churn: still terminating
    const after = run(100, s).filter(({ event }) => event.uid === meta(target).uid && event.type === 'DELETED');
    expect(after).toHaveLength(1);
    expect(after[0]!.at).toBeGreaterThanOrEqual(deadline);
  });

  // A rate below one a second runs long enough to make a few changes.
  it.each([[50, 1000], [2000, 1000], [0.5, 10_000]])('runs on its own at %d events per second', (rate, ms) => {
    // Simulated time: the pacing is checked, not how busy the machine running the tests is.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'performance'] });
    try {
      const generator = new PodGenerator({ seed: 5, nodeName: 'worker-1' });
      const store = new PodStore(Array.from({ length: 300 }, () => generator.existing(Date.now())));
      const churn = new Churn(store, { seed: 5, perSecond: rate, generator });
      let events = 0;
      store.subscribe(() => events++);
      churn.start();
      vi.advanceTimersByTime(ms);
      churn.stop();
      const stoppedAt = events;
      vi.advanceTimersByTime(100);
      expect(events).toBe(stoppedAt);
      // Paced by elapsed time: never ahead, and at most a tick behind.
      expect(events).toBeLessThanOrEqual((rate * ms) / 1000);
      expect(events).toBeGreaterThanOrEqual(Math.floor((rate * ms * 0.99) / 1000));
    } finally {
      vi.useRealTimers();
    }
  });

  it('churns many stores on one shared timer, each at its rate, until each is stopped', () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'performance'] });
    try {
      const ticker = new SharedTicker(10);
      const nodes = [100, 300].map((rate, i) => {
        const generator = new PodGenerator({ seed: 5, nodeName: `worker-${i + 1}` });
        const store = new PodStore(Array.from({ length: 50 }, () => generator.existing(Date.now())));
        return new Churn(store, { seed: 6 + i, perSecond: rate, generator, ticker });
      });
      nodes.forEach((c) => c.start());
      // One timer for both: what lets a thousand simulated nodes churn without a thousand timers.
      expect(vi.getTimerCount()).toBe(1);
      vi.advanceTimersByTime(1000);
      expect(nodes.map((c) => c.applied)).toEqual([100, 300]);
      nodes[0]!.stop();
      vi.advanceTimersByTime(100);
      expect(nodes.map((c) => c.applied)).toEqual([100, 330]);
      nodes[1]!.stop();
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it('once started, follows rate changes: idle at 0, running after setRate', async () => {
    const generator = new PodGenerator({ seed: 5, nodeName: 'worker-1' });
    const store = new PodStore(Array.from({ length: 50 }, () => generator.existing(Date.now())));
    const churn = new Churn(store, { seed: 5, perSecond: 0, generator });
    churn.start();
    await new Promise((r) => setTimeout(r, 100));
    expect(churn.applied).toBe(0);
    churn.setRate(200);
    await new Promise((r) => setTimeout(r, 300));
    churn.stop();
    expect(churn.applied).toBeGreaterThan(30);
    expect(churn.running).toBe(false);
  });

  it('rejects a nonsensical rate with a clear error', () => {
    const generator = new PodGenerator({ seed: 5, nodeName: 'worker-1' });
    expect(() => new Churn(new PodStore(), { seed: 1, perSecond: -1, generator })).toThrow(/events per second >= 0, got -1/);
    expect(() => new Churn(new PodStore(), { seed: 1, perSecond: Number.NaN, generator })).toThrow(/got NaN/);
  });
});
