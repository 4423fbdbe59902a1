import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { NodeInfo } from '../contract';
import { decodePod } from '../pod/decode';
import type { DecodedPod, PodObject } from '../pod/pod-tree';
import { webPodBytes } from '../pod/testdata/handmade-pods';
import { openPodFile } from '../snapshot/open-pod-file';
import { localFileAccess } from '../logs/local-file-access';
import { NodeRecorder } from './node-recorder';

const dir = mkdtempSync(join(tmpdir(), 'nodescope-node-recorder-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function pod(phase: string): DecodedPod {
  const p = decodePod(webPodBytes()).pod;
  (p.metadata as PodObject).uid = 'uid-a';
  (p.status as PodObject).phase = phase;
  return { pod: p, unknownFields: [] };
}

describe('the UI recorder', () => {
  it('stamps events by a monotonic clock: a wall clock stepped an hour ahead moves no event past the time it arrived', async () => {
    const path = join(dir, 'jump.recording');
    const recorder = new NodeRecorder({
      current: async () => [pod('Running')],
      node: () => ({ label: 'worker-1', state: { phase: 'live' } }) as NodeInfo,
      marked: () => {},
      problem: (message) => {
        throw new Error(message);
      },
      logFiles: async () => undefined,
    });
    // Only Date is faked: it stands still until stepped, while the monotonic clock runs on.
    vi.useFakeTimers({ toFake: ['Date'] });
    const hour = 3_600_000;
    let wallAtStart: number;
    try {
      wallAtStart = Date.now();
      await recorder.start('n', path);
      vi.setSystemTime(wallAtStart + hour);
      recorder.podEvent('n', 'MODIFIED', [pod('Failed')]);
      await recorder.stop('n');
    } finally {
      vi.useRealTimers();
    }
    const r = await openPodFile(path);
    if (r.kind !== 'recording') throw new Error(`expected a recording, got ${r.kind}`);
    expect(r.start).toBe(wallAtStart);
    expect(r.events).toHaveLength(1);
    expect(r.events[0]!.time).toBeLessThan(wallAtStart + hour);
    expect(r.end).toBeLessThan(wallAtStart + hour);
  });

  it('keeps the end of the log of a container that restarted while recorded, read through the node\'s link', async () => {
    const logsDir = join(dir, 'pods');
    const container = 'app';
    const running = { name: container, containerID: 'containerd://a', restartCount: 0, state: { running: {} }, lastState: {} };
    const crashed: DecodedPod = { pod: { metadata: { namespace: 'default', name: 'web', uid: '0a1b-2c3d' }, spec: { containers: [{ name: container }] }, status: { phase: 'Running', containerStatuses: [running] } }, unknownFields: [] };
    mkdirSync(join(logsDir, 'default_web_0a1b-2c3d', container), { recursive: true });
    const records = '2026-11-27T10:00:00Z stdout F serving\n2026-11-27T10:00:01Z stderr F panic: boom\n';
    writeFileSync(join(logsDir, 'default_web_0a1b-2c3d', container, '0.log'), records);
    const recorder = new NodeRecorder({
      current: async () => [crashed],
      node: () => ({ label: 'worker-1', state: { phase: 'live' } }) as NodeInfo,
      marked: () => {},
      problem: (message) => {
        throw new Error(message);
      },
      logFiles: async () => ({ access: localFileAccess(), logsDir, sudo: false }),
    });
    const path = join(dir, 'crash.recording');
    await recorder.start('n', path);
    const restarted = structuredClone(crashed);
    ((restarted.pod.status as PodObject).containerStatuses as PodObject[])[0] = {
      ...running,
      containerID: 'containerd://b',
      restartCount: 1,
      lastState: { terminated: { containerID: 'containerd://a', exitCode: 2, reason: 'Error' } },
    };
    recorder.podEvent('n', 'MODIFIED', [restarted]);
    await recorder.stop('n');
    const r = await openPodFile(path);
    if (r.kind !== 'recording') throw new Error(`expected a recording, got ${r.kind}`);
    expect(r.crashLogs).toHaveLength(1);
    expect(r.crashLogs[0]).toMatchObject({ container, containerID: 'containerd://a', instance: 0, exitCode: 2, lines: 2, truncated: false });
    expect(r.crashLogs[0]!.records!.toString()).toBe(records);
  });
});
