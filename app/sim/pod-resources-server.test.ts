import { describe, expect, it } from 'vitest';
import type { PodObject } from '../pod/pod-tree';
import { GPU_RESOURCE, ResourceLedger, allocatable, podResourcesOf } from './pod-resources-server';
import { PodGenerator } from './pod-generator';

describe('simulated PodResources', () => {
  it('hands out each device and exclusive CPU once, and frees them when the pod goes', () => {
    const generator = new PodGenerator({ seed: 5, nodeName: 'n' });
    const pods = Array.from({ length: 200 }, () => generator.existing(Date.now()));
    const ledger = new ResourceLedger();
    const assigned = [...ledger.sync(pods).values()];
    const devices = assigned.flatMap((a) => a.devices.map((d) => d.id));
    const cpus = assigned.flatMap((a) => a.cpus);
    expect(new Set(devices).size).toBe(devices.length);
    expect(new Set(cpus).size).toBe(cpus.length);
    const gpus = assigned.flatMap((a) => a.devices).filter((d) => d.resource === GPU_RESOURCE);
    expect(gpus.length).toBe(8); // 200 pods want more GPUs than the node has
    expect(allocatable().cpu_ids).not.toContain(0);
    // Pinned memory stays within what each NUMA node has, per memory type.
    const pinned = new Map<string, number>();
    for (const m of assigned.flatMap((a) => a.memory)) pinned.set(`${m.memory_type}/${m.topology!.nodes[0]!.ID}`, (pinned.get(`${m.memory_type}/${m.topology!.nodes[0]!.ID}`) ?? 0) + m.size);
    expect(pinned.size).toBeGreaterThan(0);
    for (const m of allocatable().memory) expect(pinned.get(`${m.memory_type}/${m.topology!.nodes[0]!.ID}`) ?? 0).toBeLessThanOrEqual(m.size);

    const gpuPod = pods.find((p) => ledger.sync(pods).get(String((p.metadata as PodObject).uid))?.devices.some((d) => d.resource === GPU_RESOURCE))!;
    const rest = pods.filter((p) => p !== gpuPod);
    const after = [...ledger.sync(rest).values()].flatMap((a) => a.devices).filter((d) => d.resource === GPU_RESOURCE);
    expect(after.length).toBe(7);
    const withNewcomer = [...rest, generator.existing(Date.now())];
    expect(ledger.sync(withNewcomer).size).toBeGreaterThanOrEqual(ledger.sync(rest).size);
    const message = podResourcesOf(gpuPod, undefined);
    expect(message.containers.every((c) => c.devices.length === 0 && c.cpu_ids.length === 0)).toBe(true);
  });
});
