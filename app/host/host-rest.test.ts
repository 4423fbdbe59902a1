// A node read through the kubelet's REST API in the app: OpenSSH on loopback in front of the simulated
// kubelet's HTTPS API (bearer token) and its root-only PodResources socket. The serving certificate is
// asked about like a host key; CPU, memory, probes, devices and the runtime difference come as metrics.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSshHarness, type SshHarness } from '../../e2e/harness/ssh-harness';
import type { NodeInfo, NodeMetrics, Prompt } from '../contract';
import { PINS_FILE_NAME, pinName } from '../kubelet-rest/kubelet-certificate-pins';
import type { PodObject } from '../pod/pod-tree';
import { GPU_RESOURCE } from '../sim/pod-resources-server';
import { startSimulatedKubelet, type SimulatedKubelet } from '../sim/kubelet-server';
import { pollUntil } from '../testing/poll-until';
import type { AppEvent } from '../core/app-event';
import { callerOf, driveHost } from './testing/drive-host';
import { createHost, type Host } from './host';

const TOKEN = 'tok-app-0123456789';

let h: SshHarness;
let sim: SimulatedKubelet;
let inspector: Host;
let stateDir: string;
let tokenFile: string;
let events: AppEvent[];
let call: ReturnType<typeof callerOf>;

const node = async (id: string) => (await call<NodeInfo[]>('nodes.list')).find((n) => n.id === id);
const pending = async (kind: Prompt['kind']) => (await call<Prompt[]>('prompts.pending')).find((p) => p.kind === kind);

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'ns-inspector-rest-'));
  h = await startSshHarness({
    startKubelet: async (socketPath) =>
      (sim = await startSimulatedKubelet({
        // The Pods API is where Nodescope does not look: auto falls back to REST.
        socketPath: join(dirname(socketPath), 'pods.sock'),
        podResourcesSocketPath: socketPath,
        pods: 60,
        seed: 41,
        rest: { tokens: { [TOKEN]: 'alice' } },
      })),
  });
  tokenFile = join(dir, 'token');
  writeFileSync(tokenFile, TOKEN, { mode: 0o600 });
  stateDir = join(dir, 'state');
  inspector = await createHost({ mode: 'browser', stateDir, demo: false, sshConfigFile: h.sshConfig });
  ({ events, call } = driveHost(inspector));
}, 120_000);
afterAll(async () => {
  await inspector?.close();
  await h?.stop();
});

describe('a node read through the kubelet REST API in the app', () => {
  it('asks about the serving certificate like a host key, pins it, reads the pods and says it reads them through REST', async () => {
    const added = await call<NodeInfo>('nodes.add', {
      host: 'target',
      api: 'auto',
      rest: { port: sim.rest!.port, tokenFile },
      podResourcesSocket: h.socketPath,
      label: 'rest-node',
    });
    const prompt = await pollUntil('the certificate question', () => pending('kubeletCertificate'));
    expect(prompt).toMatchObject({ kind: 'kubeletCertificate', nodeId: added.id, port: sim.rest!.port, fingerprint: sim.rest!.fingerprint });
    expect((await node(added.id))?.state).toMatchObject({ phase: 'waitingForUser', waitingFor: 'kubeletCertificate' });
    await call('prompts.answer', { promptId: prompt.id, answer: { kind: 'hostKey', decision: 'acceptAndRemember' } });

    const live = await pollUntil('live with the pods', () => node(added.id), (n): n is NodeInfo => n?.state.phase === 'live' && n.podCount === sim.store.size);
    expect(live.readFrom).toBe('rest');
    expect(readFileSync(join(stateDir, PINS_FILE_NAME), 'utf8')).toBe(`${pinName(h.host, sim.rest!.port)} ${sim.rest!.fingerprint}\n`);
    // Remembered with its API and credential path, never the token itself.
    const saved = readFileSync(join(stateDir, 'nodes.json'), 'utf8');
    expect(JSON.parse(saved).nodes[0]).toMatchObject({ api: 'auto', rest: { port: sim.rest!.port, tokenFile }, podResourcesSocket: h.socketPath });
    expect(saved).not.toContain(TOKEN);
  });

  it('reads CPU and memory per pod and container, probes, devices and the runtime difference', async () => {
    const id = (await call<NodeInfo[]>('nodes.list'))[0]!.id;
    const metrics = await pollUntil('metrics', () => call<NodeMetrics | null>('nodes.metrics', { nodeId: id }), (m): m is NodeMetrics => m !== null);
    expect(events.some((e) => e.name === 'nodeMetrics' && e.payload.nodeId === id && e.payload.metrics !== null)).toBe(true);

    if (!metrics.usage.available) throw new Error(metrics.usage.reason);
    const running = sim.store.list().filter((p) => (p.status as PodObject | undefined)?.phase === 'Running');
    const uid = String((running[0]!.metadata as PodObject).uid);
    expect(metrics.usage.pods[uid]?.cpuCores).toBeGreaterThan(0);
    expect(metrics.usage.pods[uid]?.memoryBytes).toBeGreaterThan(0);
    expect(Object.keys(metrics.usage.pods[uid]!.containers).length).toBeGreaterThan(0);
    expect(metrics.usage.node.cpuCores).toBeGreaterThan(0);

    if (!metrics.probes.available) throw new Error(metrics.probes.reason);
    expect(Object.keys(metrics.probes.pods).length).toBeGreaterThan(0);

    if (!metrics.resources.available) throw new Error(metrics.resources.reason);
    const gpus = Object.values(metrics.resources.pods).flatMap((containers) => Object.values(containers).flatMap((c) => c.devices.filter((d) => d.resource === GPU_RESOURCE)));
    expect(gpus.length).toBeGreaterThan(0);
    expect(gpus[0]!.ids[0]).toMatch(/^GPU-/);
    expect(gpus[0]!.numaNodes.length).toBe(1);
    const gpuLine = metrics.resources.node.find((l) => l.resource === GPU_RESOURCE)!;
    expect(gpuLine).toMatchObject({ allocatable: 8, taken: gpus.reduce((n, d) => n + d.ids.length, 0), unit: 'devices' });

    if (!metrics.runtime.available) throw new Error(metrics.runtime.reason);
    const ghost = sim.generator.existing(Date.now());
    sim.rest!.lingering.set('ghost', ghost);
    try {
      const ghostUid = String((ghost.metadata as PodObject).uid);
      await pollUntil('the lingering pod', () => call<NodeMetrics | null>('nodes.metrics', { nodeId: id }), (m): m is NodeMetrics =>
        m?.runtime.available === true && m.runtime.runtimeOnly.some((p) => p.uid === ghostUid), { timeoutMs: 20_000 });
    } finally {
      sim.rest!.lingering.delete('ghost');
    }
  }, 40_000);

  it('drops the metrics when the node disconnects: nothing stale is shown as current', async () => {
    const id = (await call<NodeInfo[]>('nodes.list'))[0]!.id;
    await call('nodes.disconnect', { nodeId: id });
    expect(await call('nodes.metrics', { nodeId: id })).toBeNull();
    expect(events.findLast((e) => e.name === 'nodeMetrics' && e.payload.nodeId === id)?.payload).toEqual({ nodeId: id, metrics: null });
  });
});
