import { describe, expect, it } from 'vitest';
import type { DecodedPod } from '../pod/pod-tree';
import { encodePod } from '../pod/encode';
import { decodeStored } from '../pod/stored-pod';
import { DEFAULT_CRASH_LOG_BOUNDS, type CrashLog } from '../recording/crash-log';
import { PodHistory } from './pod-history';
import { estimateBytes } from './pod-size';

const pod = (uid: string, restarts: number, note = ''): DecodedPod => ({
  pod: {
    metadata: { uid, name: `pod-${uid}`, namespace: 'default', labels: { app: 'web' }, annotations: { note } },
    spec: { containers: [{ name: 'app', image: 'nginx:1.29', args: ['--port', '8080'] }] },
    status: { phase: 'Running', containerStatuses: [{ name: 'app', restartCount: restarts }] },
  },
  unknownFields: [],
});

const limits = { perPod: 100, totalBytes: 1e9, deletedRetentionMs: 60_000 };

describe('pod history', () => {
  it('keeps every version with its arrival time and event, oldest first', () => {
    const h = new PodHistory(limits, () => 0);
    h.record('a', 'LISTED', pod('a', 0), 1000);
    h.record('a', 'MODIFIED', pod('a', 1), 2000);
    h.record('a', 'DELETED', pod('a', 1), 3000);
    expect(h.versions('a').map((v) => [v.time, v.event, (decodeStored(v.pod).pod.status as { containerStatuses: { restartCount: number }[] }).containerStatuses[0]!.restartCount])).toEqual([
      [1000, 'LISTED', 0],
      [2000, 'MODIFIED', 1],
      [3000, 'DELETED', 1],
    ]);
    expect(h.trimmed('a')).toBe(0);
    expect(h.trimmedAny).toBe(false);
  });

  it('keeps at most perPod earlier versions of a pod besides the current one, dropping its oldest and counting them', () => {
    const h = new PodHistory({ ...limits, perPod: 3 }, () => 0);
    for (let i = 0; i < 10; i++) h.record('a', i === 0 ? 'ADDED' : 'MODIFIED', pod('a', i), i);
    expect(h.versions('a').map((v) => v.time)).toEqual([6, 7, 8, 9]);
    expect(h.trimmed('a')).toBe(6);
    expect(h.trimmedAny).toBe(true);
    h.setLimits({ ...limits, perPod: 1 });
    expect(h.versions('a').map((v) => v.time)).toEqual([8, 9]);
  });

  it('stays within the memory budget by dropping the oldest earlier versions across pods, never a current one', () => {
    const h = new PodHistory(limits, () => 0);
    let t = 0;
    for (let i = 0; i < 20; i++) {
      h.record('a', 'MODIFIED', pod('a', i, 'x'.repeat(200 + i)), t++);
      h.record('b', 'MODIFIED', pod('b', i, 'y'.repeat(200 + i)), t++);
    }
    const unbounded = h.bytes;
    expect(unbounded).toBeGreaterThan(0);
    h.setLimits({ ...limits, totalBytes: unbounded / 4 });
    expect(h.bytes).toBeLessThanOrEqual(unbounded / 4);
    const a = h.versions('a');
    const b = h.versions('b');
    expect(a.at(-1)!.time).toBe(38);
    expect(b.at(-1)!.time).toBe(39);
    // Oldest first: whatever is left of either pod is newer than anything dropped from the other.
    const keptTimes = [...a, ...b].map((v) => v.time).sort((x, y) => x - y);
    const droppedCount = 40 - keptTimes.length;
    expect(keptTimes).toEqual(Array.from({ length: 40 - droppedCount }, (_, i) => i + droppedCount));
    expect(h.trimmed('a') + h.trimmed('b')).toBe(droppedCount);
    // Even a budget of nothing keeps each pod's current version.
    h.setLimits({ ...limits, totalBytes: 0 });
    expect(h.versions('a').map((v) => v.time)).toEqual([38]);
    expect(h.bytes).toBe(0);
  });

  it('charges a version about what changed: unchanged parts are shared with the next', () => {
    const h = new PodHistory(limits, () => 0);
    h.record('a', 'ADDED', pod('a', 0, 'z'.repeat(5000)), 0);
    h.record('a', 'MODIFIED', pod('a', 1, 'z'.repeat(5000)), 1);
    const [first, second] = h.versions('a');
    expect(first!.bytes).toBeGreaterThan(0);
    expect(first!.bytes).toBeLessThan(estimateBytes(decodeStored(first!.pod).pod) / 10);
    expect(decodeStored(second!.pod).pod.spec).toBe(decodeStored(first!.pod).pod.spec);
    expect(decodeStored(second!.pod).pod.status).not.toBe(decodeStored(first!.pod).pod.status);
  });

  it('keeps a deleted pod for the retention time, then lets it go; one that comes back keeps it', () => {
    let now = 0;
    const h = new PodHistory({ ...limits, deletedRetentionMs: 1000 }, () => now);
    h.record('gone', 'ADDED', pod('gone', 0), 0);
    h.record('gone', 'DELETED', pod('gone', 0), 100);
    h.record('back', 'ADDED', pod('back', 0), 0);
    h.record('back', 'DELETED', pod('back', 0), 100);
    h.record('back', 'ADDED', pod('back', 1), 500);
    now = 1099;
    expect(h.versions('gone')).toHaveLength(2);
    expect(h.deletedUids()).toEqual(['gone']);
    now = 1100;
    expect(h.versions('gone')).toEqual([]);
    expect(h.versions('back')).toHaveLength(3);
    expect(h.bytes).toBeGreaterThan(0);
  });

  it("keeps a node's versions as their bytes, one copy of the current one, and decodes them as received", () => {
    const h = new PodHistory(limits, () => 0);
    const bytes = (restarts: number) => ({ bytes: encodePod(pod('a', restarts).pod), row: 'what the pod set keeps beside' });
    const listed = bytes(0);
    h.record('a', 'LISTED', listed, 0);
    // A reconnect lists the same bytes in a new buffer: no new version, and the version takes the new copy.
    const again = bytes(0);
    expect(h.record('a', 'LISTED', again, 1).time).toBe(0);
    expect(h.versions('a')).toHaveLength(1);
    expect((h.versions('a')[0]!.pod as { bytes: Uint8Array }).bytes).toBe(again.bytes);
    expect(h.versions('a')[0]!.pod).not.toHaveProperty('row');
    h.record('a', 'MODIFIED', bytes(1), 2);
    const [first, second] = h.versions('a');
    expect(decodeStored(first!.pod).pod).toEqual(decodeStored({ bytes: encodePod(pod('a', 0).pod) }).pod);
    expect((decodeStored(second!.pod).pod.status as { containerStatuses: { restartCount: number }[] }).containerStatuses[0]!.restartCount).toBe(1);
    expect(first!.bytes).toBeGreaterThan(again.bytes.length);
    expect(h.bytes).toBe(first!.bytes);
    // Its deletion reports the pod as last held: the same bytes, kept once.
    h.record('a', 'DELETED', { bytes: (second!.pod as { bytes: Uint8Array }).bytes }, 3);
    expect(h.versions('a')).toHaveLength(3);
    // Only what keeping a version costs besides its pod (as the first's cost beyond its bytes).
    expect(h.versions('a')[1]!.bytes).toBe(first!.bytes - again.bytes.length);
  });
});

describe("pod history's kept crash logs", () => {
  const log = (uid: string, instance: number, lines: number, bytes = 10): CrashLog => ({
    time: instance,
    uid,
    namespace: 'default',
    name: `pod-${uid}`,
    container: 'app',
    containerID: `containerd://${uid}-${instance}`,
    instance,
    ended: 'restarted',
    records: Buffer.alloc(bytes, 0x61),
    lines,
    truncated: false,
  });

  it('keeps them with their pod, drops the oldest past a recording\'s allowance, and with the pod when its history expires', () => {
    let now = 0;
    const h = new PodHistory(limits, () => now);
    h.record('a', 'LISTED', pod('a', 0), 0);
    h.record('b', 'LISTED', pod('b', 0), 0);
    expect(h.keepCrashLog(log('gone', 0, 1))).toBe(false);
    const half = DEFAULT_CRASH_LOG_BOUNDS.totalLines / 2;
    expect(h.keepCrashLog(log('a', 0, half))).toBe(true);
    h.keepCrashLog(log('b', 0, half));
    expect(h.allCrashLogs().map((l) => [l.uid, l.instance])).toEqual([['a', 0], ['b', 0]]);
    // One more line than allowed: the oldest capture goes, whichever pod it is of.
    h.keepCrashLog(log('b', 1, 1));
    expect(h.crashLogs('a')).toEqual([]);
    expect(h.crashLogs('b').map((l) => l.instance)).toEqual([0, 1]);
    // Bytes count as lines do.
    h.keepCrashLog(log('a', 1, 1, DEFAULT_CRASH_LOG_BOUNDS.totalBytes));
    expect(h.allCrashLogs().map((l) => [l.uid, l.instance])).toEqual([['a', 1]]);
    // Deleted and expired: its captures go with its versions, and free their share of the allowance.
    h.record('a', 'DELETED', pod('a', 0), 0);
    now = limits.deletedRetentionMs;
    h.sweep(now);
    expect(h.allCrashLogs()).toEqual([]);
    h.keepCrashLog(log('b', 2, half));
    h.keepCrashLog(log('b', 3, half));
    expect(h.crashLogs('b').map((l) => l.instance)).toEqual([2, 3]);
  });
});
