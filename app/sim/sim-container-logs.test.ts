import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { containerLogs } from '../logs/container-logs';
import { localFileAccess } from '../logs/local-file-access';
import { listContainers, listPodLogDirs, type PodLogDir } from '../logs/pod-log-layout';
import type { PodObject } from '../pod/pod-tree';
import { restartContainer } from './pod-changes';
import { generatePods } from './pod-generator';
import { containerStatuses } from './pod-status';
import { PodStore } from './pod-store';
import { Prng } from './prng';
import { startSimContainerLogs, type SimContainerLogs } from './sim-container-logs';
import { criRecords, MAX_LINE, rfc3339Nano } from './sim-log-lines';

let dir: string;
let logs: SimContainerLogs | undefined;
beforeEach(async () => (dir = await mkdtemp(join(tmpdir(), 'ns-simlogs-'))));
afterEach(async () => {
  logs?.stop();
  await rm(dir, { recursive: true, force: true });
});

const access = localFileAccess();
async function text(pod: PodLogDir, container: string, opts: { previous?: boolean; includeRotated?: boolean } = {}): Promise<string> {
  let out = '';
  for await (const w of containerLogs(access).read({ pod, container, previous: opts.previous ?? false }, { includeRotated: opts.includeRotated ?? false })) out += w.bytes.toString();
  return out;
}

describe('simulated container log files', () => {
  it('writes times as containerd does and cuts long lines into P chunks', () => {
    expect(rfc3339Nano(Date.parse('2026-01-01T10:00:00.120Z'), 500)).toBe('2026-01-01T10:00:00.1200005Z');
    expect(rfc3339Nano(Date.parse('2026-01-01T10:00:00Z'), 0)).toBe('2026-01-01T10:00:00Z');
    const records = criRecords('T', 'stdout', 'a'.repeat(MAX_LINE + 3)).split('\n');
    expect(records.map((r) => r.slice(0, 11))).toEqual(['T stdout P ', 'T stdout F ', '']);
    expect(records[1]).toBe('T stdout F aaa');
    expect(criRecords('T', 'stderr', '')).toBe('T stderr F \n');
  });

  it('lays out the pods in the kubelet layout, rotates with gzip and ends a restarted instance with its crash', async () => {
    const store = new PodStore(generatePods(12, { seed: 3, nodeName: 'n1', nowMs: Date.now() }));
    logs = startSimContainerLogs(store, { dir, seed: 3, maxFileBytes: 4096, intervalMs: 0, linesPerTick: 5 });
    const pods = await listPodLogDirs(access, dir);
    expect(pods.length).toBeGreaterThan(3);
    for (let i = 0; i < 60; i++) logs.tick();

    // A pod with a running container: its live file, rotated plain and gzip files, read whole in order.
    const uid = store.uids().find((u) => containerStatuses(store.get(u)!).some((c) => (c.state as PodObject).running))!;
    const pod = pods.find((p) => p.uid === uid)!;
    const container = String(containerStatuses(store.get(uid)!).find((c) => (c.state as PodObject).running)!.name);
    expect(await listContainers(access, pod)).toContain(container);
    const restarts = Number(containerStatuses(store.get(uid)!).find((c) => c.name === container)!.restartCount);
    const names = await readdir(join(pod.path, container));
    expect(names.filter((n) => n.endsWith('.gz')).length).toBeGreaterThan(0);
    expect(names.filter((n) => new RegExp(`^${restarts}\\.log\\.\\d{8}-\\d{6}(\\.gz)?$`).test(n)).length).toBeLessThanOrEqual(4); // containerLogMaxFiles 5, the live file included
    expect((await stat(join(pod.path, container, `${restarts}.log`))).mode & 0o777).toBe(0o640);
    const all = await text(pod, container, { includeRotated: true });
    expect(all.length).toBeGreaterThan((await text(pod, container)).length);
    expect(all).toContain('\x1b[32mINFO\x1b[0m');

    const before = containerStatuses(store.get(uid)!);
    const restarted = restartContainer(store.get(uid)!, new Prng(9), Date.now())!;
    store.apply({ op: 'update', pod: restarted });
    const name = String(containerStatuses(restarted).find((c, i) => c.restartCount !== before[i]!.restartCount)!.name);
    const previous = await text(pod, name, { previous: true });
    expect(previous).toMatch(/panic: runtime error: invalid memory address or nil pointer dereference\n[\s\S]*\/src\/server\.go:\d+ \+0x[0-9a-f]+\n$/);
  });

  it('logs init containers that ran, in the same layout', async () => {
    const store = new PodStore(generatePods(60, { seed: 7, nodeName: 'n1', nowMs: Date.now() }));
    logs = startSimContainerLogs(store, { dir, intervalMs: 0 });
    const uid = store.uids().find((u) => ((store.get(u)!.status as PodObject).initContainerStatuses as PodObject[] | undefined)?.some((c) => (c.state as PodObject).terminated))!;
    expect(uid).toBeDefined();
    const init = ((store.get(uid)!.status as PodObject).initContainerStatuses as PodObject[]).find((c) => (c.state as PodObject).terminated)!;
    const pod = (await listPodLogDirs(access, dir)).find((p) => p.uid === uid)!;
    expect(await listContainers(access, pod)).toContain(String(init.name));
    expect((await text(pod, String(init.name))).length).toBeGreaterThan(0);
  });

  it('removes a deleted pod\'s logs, as container garbage collection does', async () => {
    const store = new PodStore(generatePods(5, { seed: 4, nodeName: 'n1', nowMs: Date.now() }));
    logs = startSimContainerLogs(store, { dir, intervalMs: 0 });
    const [first] = await listPodLogDirs(access, dir);
    store.apply({ op: 'delete', uid: first!.uid });
    expect((await listPodLogDirs(access, dir)).map((p) => p.uid)).not.toContain(first!.uid);
  });
});
