// `nodescope node` option errors: named, with what to give, and exit 2; and the node's allocatable from the
// simulator's PodResources socket, said to be unknown (not zero) without one.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeAllocatable } from '../node-info/node-allocatable';
import type { NodeContext } from '../node-info/node-context';
import { startSimulatedKubelet, type SimulatedKubelet } from '../sim/kubelet-server';
import { allocatable } from '../sim/pod-resources-server';
import { createPrivateSocketDir, type PrivateSocketDir } from '../ssh/private-socket-dir';
import { EXIT } from './exit-codes';
import { nodescope } from './testing/run-nodescope';

describe('nodescope node: bad options', () => {
  it('refuses a --journal-lines that is not a whole number from 1, and --mask, saying what to give', async () => {
    const lines = await nodescope(['node', 'unix:/nonexistent.sock', '--journal-lines', '0']);
    expect(lines.code).toBe(EXIT.usage);
    expect(lines.stderr).toContain("bad --journal-lines '0': give a whole number from 1 to 100000");
    expect(lines.stdout).toBe('');
    const mask = await nodescope(['node', 'unix:/nonexistent.sock', '--mask', 'metadata.name']);
    expect(mask.code).toBe(EXIT.usage);
    expect(mask.stderr).toContain('leave out --mask');
  }, 60_000);

  it('needs a live node: a snapshot file is refused with what to give instead', async () => {
    const r = await nodescope(['node', 'pods.json']);
    expect(r.code).toBe(EXIT.usage);
    expect(r.stderr).toContain('node needs a live node (an ssh destination or unix:SOCKET), not the file pods.json');
  }, 60_000);
});

describe("nodescope node: the node's allocatable from PodResources", () => {
  let dir: PrivateSocketDir;
  let sim: SimulatedKubelet;
  let prSocket: string;
  beforeAll(async () => {
    dir = createPrivateSocketDir();
    prSocket = join(dir.dir, 'pr.sock');
    sim = await startSimulatedKubelet({ socketPath: dir.socketPath, podResourcesSocketPath: prSocket, pods: 3, seed: 2 });
  });
  afterAll(async () => {
    await sim.stop();
    dir.remove();
  });

  it('reads GetAllocatableResources on --pod-resources-socket: CPU ids, memory by type and NUMA, devices by resource', async () => {
    const r = await nodescope(['node', `unix:${dir.socketPath}`, '--pod-resources-socket', prSocket, '-o', 'json']);
    expect(r.code).toBe(EXIT.ok);
    const context = JSON.parse(r.stdout) as NodeContext;
    expect(context.allocatable).toEqual({ from: `PodResources GetAllocatableResources on ${prSocket}`, value: nodeAllocatable(allocatable()) });
    if (!('value' in context.allocatable)) throw new Error('expected the allocatable read');
    const a = context.allocatable.value;
    expect(a.cpuIds.length).toBeGreaterThan(0);
    expect(a.memory.every((m) => m.bytes > 0 && m.type !== '')).toBe(true);
    expect(a.devices.every((d) => d.count > 0)).toBe(true);
    const text = await nodescope(['node', `unix:${dir.socketPath}`, '--pod-resources-socket', prSocket]);
    expect(text.stdout).toContain(`ALLOCATABLE    ${a.cpuIds.length} CPU ids: ${a.cpuIds.join(',')}`);
  }, 60_000);

  it('without a PodResources socket says the allocatable is not known, never zero', async () => {
    const r = await nodescope(['node', `unix:${dir.socketPath}`, '-o', 'yaml']);
    expect(r.code).toBe(EXIT.ok);
    expect(r.stdout).toContain("allocatable:\n  error: this source reads no PodResources socket, so the node's allocatable CPUs, memory and devices are not known");
    expect(r.stdout).not.toContain('cpuIds');
    const bad = await nodescope(['node', `unix:${dir.socketPath}`, '--pod-resources-socket', 'kubelet.sock']);
    expect(bad.code).toBe(EXIT.usage);
    expect(bad.stderr).toContain("--pod-resources-socket must be an absolute path, got 'kubelet.sock'");
  }, 60_000);
});
