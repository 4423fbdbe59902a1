// The node commands on the kubelet's REST API and `nodescope resources`, as a user runs them:
// bin/nodescope.js spawned against real sshd and the simulated kubelet, whose Pods API socket is not
// where Nodescope looks (so --api auto falls back to REST) and whose PodResources socket is root-only.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HARNESS_HOST_ALIASES as A, startSshHarness, type SshHarness } from '../../e2e/harness/ssh-harness';
import { pinName, rememberPin } from '../kubelet-rest/kubelet-certificate-pins';
import { startHostileRestKubelet } from '../kubelet-rest/testing/hostile-rest-kubelet';
import { encodePod } from '../pod/encode';
import type { PodObject } from '../pod/pod-tree';
import { podBytesListToKubectl, podBytesToKubectlJson } from '../pod/kubectl-json';
import type { ListPodResourcesResponse } from '../podresources/pod-resources-api';
import { startSimulatedKubelet, type SimulatedKubelet } from '../sim/kubelet-server';
import { EXIT } from './exit-codes';
import { nodescope, watchThroughChanges } from './testing/run-nodescope';

const TOKEN = 'tok-cli-0123456789';
const FAULTY_PODS = 8;


let h: SshHarness;
let sim: SimulatedKubelet;
/** A second kubelet, reached through the same node, whose /pods carries 2 pods that do not fit the pod schema. */
let faulty: SimulatedKubelet;
let dir: string;
let tokenFile: string;
let pins: string;
const rest = () => ['-F', h.sshConfig, '--kubelet-port', String(sim.rest!.port), '--token-file', tokenFile, '--kubelet-pins', pins];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'nodescope-rest-cli-'));
  h = await startSshHarness({
    startKubelet: async (socketPath) =>
      (sim = await startSimulatedKubelet({ socketPath: join(dirname(socketPath), 'pods.sock'), podResourcesSocketPath: socketPath, pods: 110, seed: 31, rest: { tokens: { [TOKEN]: 'alice' } } })),
  });
  tokenFile = join(dir, 'token');
  await writeFile(tokenFile, TOKEN, { mode: 0o600 });
  faulty = await startSimulatedKubelet({ socketPath: join(dir, 'faulty.sock'), pods: FAULTY_PODS, seed: 33, faults: { undecodable: 2 }, rest: { tokens: { [TOKEN]: 'alice' } } });
  pins = join(dir, 'pins');
  await rememberPin(pins, pinName(h.host, sim.rest!.port), sim.rest!.fingerprint);
  await rememberPin(pins, pinName(h.host, faulty.rest!.port), faulty.rest!.fingerprint);
}, 60_000);
afterAll(async () => {
  await faulty?.stop();
  await h?.stop();
  await rm(dir, { recursive: true, force: true });
});

describe('node commands on the kubelet REST API', () => {
  it('prints the pods of /pods exactly as kubectl would, saying which API it read', async () => {
    const r = await nodescope(['pods', A.target, ...rest(), '--api', 'rest', '-o', 'json']);
    expect(r.code, r.stderr).toBe(EXIT.ok);
    expect(r.stdout).toBe(Buffer.from(podBytesListToKubectl(sim.store.list().map((p) => encodePod(p))).bytes).toString());
    expect(r.stderr).toContain(`reading ${A.target} from the kubelet REST API (https://127.0.0.1:${sim.rest!.port} on the node)`);

    const uid = sim.store.uids()[5]!;
    const one = await nodescope(['get', A.target, uid, ...rest(), '--api', 'rest']);
    expect(one.code, one.stderr).toBe(EXIT.ok);
    expect(one.stdout).toBe(podBytesToKubectlJson(encodePod(sim.store.get(uid)!)).json);
  }, 30_000);

  it('falls back to REST with --api auto on a node without a Pods API socket, and says so', async () => {
    const r = await nodescope(['pods', A.target, ...rest(), '-o', 'ndjson']);
    expect(r.code, r.stderr).toBe(EXIT.ok);
    expect(r.stdout.trim().split('\n')).toHaveLength(sim.store.size);
    expect(r.stderr).toContain(`no Pods API socket on ${A.target}`);
  }, 30_000);

  it('shows an unknown serving certificate on the terminal and pins it; without a terminal, refuses and says how to pin', async () => {
    const fresh = join(dir, 'fresh-pins');
    const args = ['pods', A.target, '-F', h.sshConfig, '--api', 'rest', '--kubelet-port', String(sim.rest!.port), '--token-file', tokenFile, '--kubelet-pins', fresh, '-o', 'ndjson'];
    const batch = await nodescope(args);
    expect(batch.code).toBe(EXIT.connection);
    expect(batch.stderr).toContain('is not pinned');
    expect(batch.stderr).toContain(`next step:`);
    expect(batch.stderr).toContain(`${pinName(h.host, sim.rest!.port)} ${sim.rest!.fingerprint}`);

    const asked = await nodescope(args, { tty: { answers: [[/Continue connecting/, 'yes']] } });
    expect(asked.code, asked.stdout).toBe(EXIT.ok);
    expect(asked.stdout).toContain(sim.rest!.fingerprint);
    expect(await readFile(fresh, 'utf8')).toBe(`${pinName(h.host, sim.rest!.port)} ${sim.rest!.fingerprint}\n`);
  }, 30_000);

  it('watches by polling: a line per pod, then a line per change', async () => {
    const r = await watchThroughChanges(['watch', A.target, ...rest(), '--api', 'rest', '--poll-interval', '0.2'], 110, 3, () => sim.churn.step(3));
    expect(r.code, r.stderr).toBe(EXIT.ok);
    const lines = r.stdout.trim().split('\n');
    expect(lines.slice(0, 110).every((l) => /\sADDED\s/.test(l))).toBe(true);
    expect(lines.slice(110).every((l) => /\s(ADDED|MODIFIED|DELETED)\s/.test(l))).toBe(true);
    expect(r.stderr).toContain('in sync: 110 pods');
  }, 30_000);
});

describe('a REST port on the node that hangs, or answers too much', () => {
  it('pods fails within --call-timeout when the port takes the request and never answers, exit 4 with what to check', async () => {
    const port = await startHostileRestKubelet('silent');
    try {
      const r = await nodescope(['pods', A.target, '-F', h.sshConfig, '--api', 'rest', '--read-only', '--kubelet-port', String(port.port), '--call-timeout', '0.5']);
      expect(r.code, r.stderr).toBe(EXIT.api);
      expect(r.stderr).toContain(`The kubelet on ${h.host} port ${port.port} did not answer GET /pods: no answer within 0.5 s`);
      expect(r.stderr).toMatch(/next step: .*journalctl -u kubelet/);
    } finally {
      await port.stop();
    }
  }, 30_000);
});

describe('a REST node whose /pods has pods that do not fit the pod schema (nodescope sim --undecodable)', () => {
  const faultyRest = () => ['-F', h.sshConfig, '--kubelet-port', String(faulty.rest!.port), '--token-file', tokenFile, '--kubelet-pins', pins, '--api', 'rest'];
  const meta = (i: number) => faulty.store.list()[i]!.metadata as PodObject;
  /** The simulator breaks every other pod from the second (pod-faults.ts): items 1 and 3 of /pods. */
  const BAD = [1, 3];
  const good = () => faulty.store.list().filter((_, i) => !BAD.includes(i));
  const leftOut = (i: number) =>
    `nodescope: left out a pod that does not decode: cannot decode pod ${meta(i).namespace as string}/${meta(i).name as string} (/pods items[${i}], uid ${meta(i).uid as string}): does not fit the pod schema: expected an object (PodStatus), found string "cut short" (in status)`;
  const names = (text: string) => faulty.store.list().filter((p) => text.includes((p.metadata as PodObject).name as string)).length;

  it('pods prints every other pod, exactly as kubectl would, names each bad one, and exits as for a pod that does not decode', async () => {
    const json = await nodescope(['pods', A.target, ...faultyRest(), '-o', 'json']);
    expect(json.code, json.stderr).toBe(EXIT.data);
    expect(json.stdout).toBe(Buffer.from(podBytesListToKubectl(good().map((p) => encodePod(p))).bytes).toString());
    for (const i of BAD) expect(json.stderr).toContain(leftOut(i));

    for (const args of [[], ['-o', 'yaml'], ['--mask', 'metadata.name,status.phase', '-o', 'ndjson']]) {
      const r = await nodescope(['pods', A.target, ...faultyRest(), ...args]);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(EXIT.data);
      expect(names(r.stdout), args.join(' ')).toBe(FAULTY_PODS - BAD.length);
      for (const i of BAD) {
        expect(r.stdout).not.toContain(meta(i).name);
        expect(r.stderr).toContain(leftOut(i));
      }
    }
  }, 60_000);

  it('get prints a good pod and names the bad one when asked for it', async () => {
    const ok = await nodescope(['get', A.target, meta(2).uid as string, ...faultyRest()]);
    expect(ok.code, ok.stderr).toBe(EXIT.ok);
    expect(ok.stdout).toBe(podBytesToKubectlJson(encodePod(faulty.store.list()[2]!)).json);
    const bad = await nodescope(['get', A.target, meta(1).uid as string, ...faultyRest()]);
    expect(bad.code).toBe(EXIT.data);
    expect(bad.stderr).toContain(`cannot decode pod ${meta(1).namespace as string}/${meta(1).name as string} (/pods items[1], uid ${meta(1).uid as string})`);
  }, 30_000);

  it('watch shows the good pods, names the bad ones once, and keeps following changes', async () => {
    const pod = faulty.store.list()[2]!;
    const r = await watchThroughChanges(['watch', A.target, ...faultyRest(), '--poll-interval', '0.2', '-o', 'ndjson'], FAULTY_PODS - BAD.length, 1, () =>
      faulty.store.apply({ op: 'update', pod: { ...pod, metadata: { ...(pod.metadata as PodObject), labels: { changed: 'yes' } } } }),
    );
    expect(r.code, r.stderr).toBe(EXIT.data);
    const events = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as { type: string; object: { metadata: { name: string; labels?: object } } });
    expect(events.slice(0, -1).map((e) => e.object.metadata.name).sort()).toEqual(good().map((p) => (p.metadata as PodObject).name).sort());
    expect(events.at(-1)).toMatchObject({ type: 'MODIFIED', object: { metadata: { name: meta(2).name, labels: { changed: 'yes' } } } });
    for (const i of BAD) expect(r.stderr.split(leftOut(i)).length - 1).toBe(1);
  }, 30_000);
});

describe('nodescope resources', () => {
  it("shows each container's devices, CPUs and memory, and the node's allocatable, through the sudo bridge", async () => {
    const json = await nodescope(['resources', A.targetOperator, '-F', h.sshConfig, '--socket', h.socketPath, '--sudo', '-o', 'json']);
    expect(json.code, json.stderr).toBe(EXIT.ok);
    const parsed = JSON.parse(json.stdout) as { podResources: ListPodResourcesResponse['pod_resources']; node: { resource: string; allocatable: number; taken: number }[] };
    expect(parsed.podResources).toHaveLength(sim.store.size);
    const held = parsed.podResources.flatMap((p) => p.containers.flatMap((c) => c.devices.map((d) => ({ pod: p.name, container: c.name, ...d }))));
    const gpus = held.filter((d) => d.resource_name === 'nvidia.com/gpu');
    expect(gpus.length).toBeGreaterThan(0);
    const gpuLine = parsed.node.find((l) => l.resource === 'nvidia.com/gpu')!;
    expect(gpuLine).toMatchObject({ allocatable: 8, taken: gpus.reduce((a, d) => a + d.device_ids.length, 0) });

    const table = await nodescope(['resources', A.targetOperator, '-F', h.sshConfig, '--socket', h.socketPath, '--sudo']);
    expect(table.code, table.stderr).toBe(EXIT.ok);
    for (const d of gpus) expect(table.stdout).toMatch(new RegExp(`${d.pod}\\s+${d.container}\\s+nvidia\\.com/gpu\\s+${d.device_ids.join(',')}\\s+${d.topology!.nodes[0]!.ID}\\s`));
    expect(table.stdout).toMatch(/NODE RESOURCE\s+ALLOCATABLE\s+TAKEN\s+FREE/);
    expect(table.stdout).toMatch(/cpu \(exclusive\)\s+60\s/);
  }, 30_000);

  it('says the socket is root-only and names the sudoers line for a user without sudo', async () => {
    const r = await nodescope(['resources', A.targetNoSudo, '-F', h.sshConfig, '--socket', h.socketPath]);
    expect(r.code).toBe(EXIT.connection);
    expect(r.stderr).toContain('next step:');
  }, 30_000);
});
