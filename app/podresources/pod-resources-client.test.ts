// The PodResources client against the simulated kubelet's socket on this machine.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PodObject } from '../pod/pod-tree';
import { KubeletError } from '../kubelet/kubelet-error';
import { startSimulatedKubelet, type SimulatedKubelet } from '../sim/kubelet-server';
import { summarizeNodeResources } from './node-resources-summary';
import { createPodResourcesClient, type PodResourcesClient } from './pod-resources-client';

let dir: string;
let sim: SimulatedKubelet;
let client: PodResourcesClient;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'nodescope-podres-'));
  sim = await startSimulatedKubelet({ socketPath: join(dir, 'pods.sock'), podResourcesSocketPath: join(dir, 'pr.sock'), pods: 110, seed: 2 });
  client = createPodResourcesClient({ target: join(dir, 'pr.sock'), socketPath: join(dir, 'pr.sock') });
});
afterAll(async () => {
  client.close();
  await sim.stop();
  await rm(dir, { recursive: true, force: true });
});

describe('PodResources client', () => {
  it("lists every pod's containers and the node's allocatable, and sums what is taken", async () => {
    const [pods, allocatable] = await Promise.all([client.list(), client.allocatable()]);
    expect(pods.map((p) => `${p.namespace}/${p.name}`).sort()).toEqual(sim.store.list().map((p) => `${(p.metadata as PodObject).namespace}/${(p.metadata as PodObject).name}`).sort());
    expect(allocatable.cpu_ids).toHaveLength(60);
    const summary = summarizeNodeResources(pods, allocatable);
    const takenCpus = pods.flatMap((p) => p.containers.flatMap((c) => c.cpu_ids)).length;
    expect(summary.find((l) => l.resource === 'cpu (exclusive)')).toEqual({ resource: 'cpu (exclusive)', allocatable: 60, taken: takenCpus, unit: 'cpus' });
    expect(summary.find((l) => l.resource === 'memory (NUMA 0)')?.allocatable).toBe(96 * 1024 ** 3);
  });

  it('gets one pod, and says when it is not there', async () => {
    const m = sim.store.list()[3]!.metadata as PodObject;
    const pod = await client.get(String(m.namespace), String(m.name));
    expect(pod.name).toBe(m.name);
    const err = await client.get('nowhere', 'nothing').catch((e: unknown) => e as KubeletError);
    expect(err).toBeInstanceOf(KubeletError);
    expect((err as KubeletError).code).toBe('NOT_FOUND');
  });

  it('names the socket when it is not the PodResources API', async () => {
    const wrong = createPodResourcesClient({ target: join(dir, 'pods.sock'), socketPath: join(dir, 'pods.sock') });
    try {
      const err = (await wrong.list().catch((e: unknown) => e)) as KubeletError;
      expect(err.code).toBe('UNIMPLEMENTED');
      expect(err.message).toContain(join(dir, 'pods.sock'));
    } finally {
      wrong.close();
    }
  });
});
