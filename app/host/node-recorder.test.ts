import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { NodeInfo } from '../contract';
import { decodePod } from '../pod/decode';
import type { DecodedPod, PodObject } from '../pod/pod-tree';
import { webPodBytes } from '../pod/testdata/handmade-pods';
import { openPodFile } from '../snapshot/open-pod-file';
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
      current: () => [pod('Running')],
      node: () => ({ label: 'worker-1', state: { phase: 'live' } }) as NodeInfo,
      marked: () => {},
      problem: (message) => {
        throw new Error(message);
      },
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
});
