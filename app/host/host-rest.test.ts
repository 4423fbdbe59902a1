// A node read through the kubelet's REST API in the app: OpenSSH on loopback in front of the simulated
// kubelet's HTTPS API (bearer token) and its root-only PodResources socket. The serving certificate is
// asked about like a host key; CPU, memory, probes, devices and the runtime difference come as metrics.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSshHarness, type SshHarness } from '../../e2e/harness/ssh-harness';
import { CONFIGZ_FROM, type LogRead, type NodeContextRead, type NodeInfo, type NodeMetrics, type Prompt } from '../contract';
import { containerLogs } from '../logs/container-logs';
import { localFileAccess } from '../logs/local-file-access';
import { containerStatuses } from '../sim/pod-status';
import { startSimContainerLogs, type SimContainerLogs } from '../sim/sim-container-logs';
import { PINS_FILE_NAME, pinName } from '../kubelet-rest/kubelet-certificate-pins';
import type { PodObject } from '../pod/pod-tree';
import { GPU_RESOURCE } from '../sim/pod-resources-server';
import { startSimulatedKubelet, type SimulatedKubelet } from '../sim/kubelet-server';
import { pollUntil } from '../testing/poll-until';
import type { AppEvent } from '../core/app-event';
import { callerOf, driveHost, startCall } from './testing/drive-host';
import { createHost, type Host } from './host';

const TOKEN = 'tok-app-0123456789';

let h: SshHarness;
let sim: SimulatedKubelet;
let inspector: Host;
let stateDir: string;
let tokenFile: string;
let events: AppEvent[];
let call: ReturnType<typeof callerOf>;
let logDir: string;
let logs: SimContainerLogs;

const node = async (id: string) => (await call<NodeInfo[]>('nodes.list')).find((n) => n.id === id);
const pending = async (kind: Prompt['kind']) => (await call<Prompt[]>('prompts.pending')).find((p) => p.kind === kind);

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'ns-inspector-rest-'));
  logDir = join(dir, 'pods');
  h = await startSshHarness({
    startKubelet: async (socketPath) =>
      (sim = await startSimulatedKubelet({
        // The Pods API is where Nodescope does not look: auto falls back to REST.
        socketPath: join(dirname(socketPath), 'pods.sock'),
        podResourcesSocketPath: socketPath,
        pods: 60,
        seed: 41,
        rest: { tokens: { [TOKEN]: 'alice' }, logDir },
      })),
  });
  // Printed on demand (tick), so a read can be compared with the files.
  logs = startSimContainerLogs(sim.store, { dir: logDir, seed: 41, intervalMs: 0 });
  for (let i = 0; i < 3; i++) logs.tick();
  tokenFile = join(dir, 'token');
  writeFileSync(tokenFile, TOKEN, { mode: 0o600 });
  stateDir = join(dir, 'state');
  inspector = await createHost({ mode: 'browser', stateDir, demo: false, sshConfigFile: h.sshConfig });
  ({ events, call } = driveHost(inspector));
}, 120_000);
afterAll(async () => {
  logs?.stop();
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

  it("reads a pod's log from the kubelet's /containerLogs, the same lines the files hold, and says so; a follow sees new lines", async () => {
    const id = (await call<NodeInfo[]>('nodes.list'))[0]!.id;
    const pod = sim.store.list().find((p) => containerStatuses(p).some((c) => (c.state as PodObject).running))!;
    const m = pod.metadata as PodObject;
    const [uid, namespace, name] = [m.uid, m.namespace, m.name].map(String) as [string, string, string];
    const container = String(containerStatuses(pod).find((c) => (c.state as PodObject).running)!.name);
    const r = await call<LogRead>('logs.read', { nodeId: id, uid, container, tailLines: 5 });
    if (r.status !== 'ok') throw new Error(`${r.message} ${r.nextStep}`);
    expect(r.from).toBe(`the kubelet REST API: GET https://127.0.0.1:${sim.rest!.port}/containerLogs/${namespace}/${name}/${container}?tailLines=5`);
    let files = '';
    const dirOnNode = { namespace, name, uid, path: join(logDir, `${namespace}_${name}_${uid}`) };
    for await (const w of containerLogs(localFileAccess()).read({ pod: dirOnNode, container }, { tailLines: 5 })) files += w.bytes.toString();
    expect(r.lines).toEqual(files.split('\n').slice(0, -1));
    expect(sim.rest!.requests.some((q) => q.path === `/containerLogs/${namespace}/${name}/${container}` && q.status === 200)).toBe(true);

    const follow = startCall(inspector, 'logs.follow', { nodeId: id, uid, container, tailLines: 0 });
    await pollUntil('following', () => follow.progress[0]);
    expect(follow.progress[0]).toMatchObject({ status: 'following', from: expect.stringContaining('/containerLogs/') });
    await pollUntil('a line written after the follow started', () => (logs.tick(), follow.progress.length > 1), (seen) => seen);
    follow.cancel();
    expect(await follow.result).toMatchObject({ ok: false, error: { code: 'cancelled' } });

    const missing = await call<LogRead>('logs.read', { nodeId: id, uid, container: 'nope' });
    expect(missing).toMatchObject({ status: 'unavailable', message: expect.stringContaining('404 container "nope" not found in pod') });
  }, 40_000);

  it("shows the kubelet's effective configuration and feature gates from /configz, saying so", async () => {
    const id = (await call<NodeInfo[]>('nodes.list'))[0]!.id;
    const r = await call<NodeContextRead>('node.info', { nodeId: id });
    if (r.status !== 'read') throw new Error(r.message);
    expect(r.context.config).toMatchObject({ from: CONFIGZ_FROM, value: { nodeName: sim.nodeName, featureGates: { PodsAPI: true } } });
    expect(r.context.featureGates).toMatchObject({ from: expect.stringContaining(CONFIGZ_FROM), value: { gates: { PodsAPI: true }, podsApi: { enabled: true } } });
    expect(sim.rest!.requests.some((q) => q.path === '/configz' && q.status === 200 && q.user === 'alice')).toBe(true);
  }, 40_000);

  it('drops the metrics when the node disconnects: nothing stale is shown as current', async () => {
    const id = (await call<NodeInfo[]>('nodes.list'))[0]!.id;
    await call('nodes.disconnect', { nodeId: id });
    expect(await call('nodes.metrics', { nodeId: id })).toBeNull();
    expect(events.findLast((e) => e.name === 'nodeMetrics' && e.payload.nodeId === id)?.payload).toEqual({ nodeId: id, metrics: null });
  });
});
