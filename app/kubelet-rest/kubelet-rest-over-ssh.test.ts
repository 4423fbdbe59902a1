// The kubelet's REST API through the real SSH path: OpenSSH sshd on loopback, the simulated kubelet's
// HTTPS API on a loopback port reached through a direct-tcpip channel (or a bridge command where sshd
// forbids TCP forwarding), credentials, certificate pinning, the errors, and polling into watch events.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { HARNESS_HOST_ALIASES as A, startSshHarness, type SshHarness } from '../../e2e/harness/ssh-harness';
import type { NodeState } from '../contract';
import { openKubeletNodeLink } from '../host/kubelet-node-link';
import { KubeletError } from '../kubelet/kubelet-error';
import { startPodWatch, type PodWatch } from '../kubelet/pod-watch';
import { eventually } from '../kubelet/testing/oracle';
import { encodePod } from '../pod/encode';
import { podBytesToKubectlJson } from '../pod/kubectl-json';
import type { DecodedPod, PodObject } from '../pod/pod-tree';
import { decodeStored, type StoredPod } from '../pod/stored-pod';
import { containerStatuses } from '../sim/pod-status';
import { startSimulatedKubelet, type SimulatedKubelet } from '../sim/kubelet-server';
import type { HostKeyAnswer } from '../ssh/ssh-prompter';
import { closedPort, harnessTarget, scriptedPrompter, startEchoSocket } from '../ssh/testing/ssh-test-kit';
import { pinName, rememberPin } from './kubelet-certificate-pins';
import { CredentialError, openKubeletRest, type KubeletRestConnection, type KubeletRestOptions } from './kubelet-rest-connection';
import { probeKey } from './probe-metrics';
import { runtimeDifference } from './runtime-difference';

const TOKEN = 'tok-alice-0123456789';
const LIMITED = 'tok-bob-0123456789';

let h: SshHarness;
let noForwarding: SshHarness;
let sim: SimulatedKubelet;
let dir: string;
const opened: KubeletRestConnection[] = [];
const watches: PodWatch[] = [];
let files: { token: string; limited: string; wrong: string; cert: string; key: string };

const printed = (bytes: Uint8Array) => podBytesToKubectlJson(bytes).json;
const oracle = (uid: string) => printed(encodePod(sim.store.get(uid)!));

/** UIDs where `held` differs from the simulator's pods, as printed; [] when converged. */
function divergence(held: ReadonlyMap<string, DecodedPod>): string[] {
  const out = [...held.keys()].filter((uid) => !sim.store.get(uid));
  for (const uid of sim.store.uids()) {
    const mine = held.get(uid);
    if (!mine || printed(encodePod(mine.pod)) !== oracle(uid)) out.push(uid);
  }
  return out;
}

async function secret(name: string, text: string): Promise<string> {
  const file = join(dir, name);
  await writeFile(file, text, { mode: 0o600 });
  return file;
}

let pinsCount = 0;
const freshPins = () => join(dir, `pins-${++pinsCount}`);

async function connect(options: Partial<KubeletRestOptions> & { answers?: HostKeyAnswer[]; harness?: SshHarness } = {}) {
  const { answers = [], harness = h, ...rest } = options;
  const prompter = scriptedPrompter({ hostKey: answers });
  const conn = await openKubeletRest(harnessTarget(harness, harness.root), {
    prompter,
    pinsFile: rest.pinsFile ?? freshPins(),
    port: sim.rest!.port,
    credentials: { token: { file: files.token } },
    ...rest,
  });
  opened.push(conn);
  return { conn, prompter };
}

/** A pins file that already trusts the simulator's current certificate. */
async function pinned(port = sim.rest!.port, host = h.host, kubelet = sim): Promise<string> {
  const file = freshPins();
  await rememberPin(file, pinName(host, port), kubelet.rest!.fingerprint);
  return file;
}

async function failure(promise: Promise<unknown>): Promise<KubeletError> {
  try {
    await promise;
  } catch (err) {
    return err as KubeletError;
  }
  throw new Error('expected a failure');
}

/**
 * The app's node link on a simulated kubelet: a node whose settings say REST, with the token file. The link
 * hands the app stored pods (their bytes): decoded, they are keyed by their metadata.uid.
 */
async function openRestNodeLink(kubelet: SimulatedKubelet) {
  const uidOf = (d: DecodedPod) => (d.pod.metadata as { uid: string }).uid;
  const shown = new Map<string, DecodedPod>();
  const states: NodeState[] = [];
  const readFrom: string[] = [];
  const source = openKubeletNodeLink(
    {
      nodeId: 'n',
      spec: { kind: 'ssh', host: A.target, api: 'rest', rest: { port: kubelet.rest!.port, tokenFile: files.token, pollIntervalS: 0.2 } },
      prompter: scriptedPrompter({}),
      events: {
        state: (s) => states.push(s),
        reset: (pods) => {
          shown.clear();
          // This link keeps whole pods (no rowsOnly asked).
          for (const p of pods) shown.set(uidOf(decodeStored(p as StoredPod)), decodeStored(p as StoredPod));
        },
        change: (type, stored) => {
          const decoded = decodeStored(stored as StoredPod);
          if (type === 'DELETED') shown.delete(uidOf(decoded));
          else shown.set(uidOf(decoded), decoded);
        },
        readFrom: (api) => readFrom.push(api),
      },
    },
    { sshConfigFile: h.sshConfig, pinsFile: await pinned(kubelet.rest!.port, h.host, kubelet) },
  );
  return { source, shown, states, readFrom };
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'nodescope-rest-'));
  h = await startSshHarness({
    startKubelet: async (socketPath) =>
      (sim = await startSimulatedKubelet({ socketPath, pods: 40, seed: 21, rest: { tokens: { [TOKEN]: 'alice', [LIMITED]: 'bob' }, allow: { bob: ['stats'] }, readOnlyPort: 0 } })),
  });
  noForwarding = await startSshHarness({ address: '127.0.0.3', sshdOptions: { AllowTcpForwarding: 'no' }, startKubelet: startEchoSocket });
  const carol = await sim.rest!.clientCa.issue('carol', ['ops']);
  files = {
    token: await secret('token', `${TOKEN}\n`),
    limited: await secret('limited', LIMITED),
    wrong: await secret('wrong', 'tok-nobody'),
    cert: await secret('carol.crt', carol.certPem),
    key: await secret('carol.key', carol.keyPem),
  };
}, 90_000);
afterEach(async () => {
  await Promise.all(watches.splice(0).map((w) => w.close()));
  await Promise.all(opened.splice(0).map((c) => c.close()));
  sim.churn.stop();
  sim.rest!.setAuthorizer('ok');
});
afterAll(async () => {
  await Promise.all([h?.stop(), noForwarding?.stop()]);
  await rm(dir, { recursive: true, force: true });
});

describe('the kubelet REST API over SSH', () => {
  it('reads /pods with a bearer token once the user pins the serving certificate, and asks only the first time', async () => {
    const pinsFile = freshPins();
    const { conn, prompter } = await connect({ pinsFile, answers: ['remember'] });
    const { pods, api } = await conn.client.listPods();
    expect(api).toBe('rest');
    expect(prompter.asked.hostKey).toEqual([{ host: h.host, port: sim.rest!.port, keyType: expect.stringContaining('kubelet serving certificate'), fingerprint: sim.rest!.fingerprint }]);
    expect(await readFile(pinsFile, 'utf8')).toBe(`${pinName(h.host, sim.rest!.port)} ${sim.rest!.fingerprint}\n`);
    expect(pods.map((p) => p.uid).sort()).toEqual([...sim.store.uids()]);
    for (const p of pods) expect(printed(encodePod(p.pod))).toBe(oracle(p.uid));
    expect(sim.rest!.requests.at(-1)).toEqual({ path: '/pods', status: 200, user: 'alice' });

    const again = await connect({ pinsFile });
    expect((await again.conn.client.listPods()).pods).toHaveLength(sim.store.size);
    expect(again.prompter.asked.hostKey).toEqual([]);
  });

  it('authenticates with a client certificate and key, and with a token read on the node through sudo', async () => {
    const { conn } = await connect({ pinsFile: await pinned(), credentials: { clientCert: { file: files.cert }, clientKey: { file: files.key } } });
    expect((await conn.client.listPods()).pods).toHaveLength(sim.store.size);
    expect(sim.rest!.requests.at(-1)?.user).toBe('carol');

    const onNode = await connect({ pinsFile: await pinned(), credentials: { token: { nodePath: files.token } } });
    expect((await onNode.conn.client.listPods()).pods).toHaveLength(sim.store.size);
    expect(sim.rest!.requests.at(-1)?.user).toBe('alice');
  });

  it('reads at most 1 MiB of a credential on the node: node:/dev/zero is refused with what to check', async () => {
    const err = await failure(connect({ pinsFile: await pinned(), credentials: { clientCert: { nodePath: '/dev/zero' }, clientKey: { nodePath: '/dev/zero' } } }));
    expect(err).toBeInstanceOf(CredentialError);
    expect(err.message).toBe('the client certificate at /dev/zero on the node is larger than 1 MiB, which no client certificate is; it was not read whole');
    expect(err.nextStep).toBe('Check that /dev/zero is the client certificate file itself, not a device or a FIFO (ls -l on the node).');
  });

  it('verifies against a CA file without asking, and names a CA that did not sign the certificate', async () => {
    const ca = await secret('kubelet-ca.crt', sim.rest!.certificatePem);
    const { conn, prompter } = await connect({ caFile: ca });
    expect((await conn.client.listPods()).pods).toHaveLength(sim.store.size);
    expect(prompter.asked.hostKey).toEqual([]);

    const other = await secret('other-ca.crt', sim.rest!.clientCa.certPem);
    const { conn: wrong } = await connect({ caFile: other });
    const err = await failure(wrong.client.listPods());
    expect(err.code).toBe('TLS');
    expect(err.message).toContain(`not signed by the CA in ${other}`);
    expect(err.message).toContain(sim.rest!.fingerprint);
  });

  it('never accepts an unknown certificate silently: refused when nobody can be asked, or when the user says no', async () => {
    const pinsFile = freshPins();
    const { conn } = await connect({ pinsFile, answers: ['cannot-ask'] });
    const err = await failure(conn.client.listPods());
    expect(err.code).toBe('TLS');
    expect(err.message).toContain(`${sim.rest!.fingerprint} for ${pinName(h.host, sim.rest!.port)} is not pinned`);
    expect(err.nextStep).toContain(`${pinName(h.host, sim.rest!.port)} ${sim.rest!.fingerprint}`);
    expect(err.nextStep).toContain(pinsFile);
    const refused = await connect({ pinsFile, answers: ['refuse'] });
    expect((await failure(refused.conn.client.listPods())).message).toContain('was refused');
    await expect(readFile(pinsFile, 'utf8')).rejects.toThrow(/ENOENT/);
  });

  it('refuses a changed serving certificate, with both fingerprints and how to reset the pin', async () => {
    const pinsFile = await pinned();
    const old = sim.rest!.fingerprint;
    await sim.rest!.replaceServingCertificate();
    const { conn, prompter } = await connect({ pinsFile, answers: ['remember'] });
    const err = await failure(conn.client.listPods());
    expect(err.code).toBe('TLS');
    expect(err.message).toContain('has CHANGED');
    expect(err.message).toContain(old);
    expect(err.message).toContain(sim.rest!.fingerprint);
    expect(err.nextStep).toContain(`sed -i '1d' ${pinsFile}`);
    expect(prompter.asked.hostKey).toEqual([]);
    expect(await readFile(pinsFile, 'utf8')).toBe(`${pinName(h.host, sim.rest!.port)} ${old}\n`);
  });

  it('says which credential the kubelet refused (401), which RBAC rule is missing (403), and when the control plane is down', async () => {
    const pinsFile = await pinned();
    const bad = await connect({ pinsFile, credentials: { token: { file: files.wrong } } });
    const unauth = await failure(bad.conn.client.listPods());
    expect(unauth.code).toBe('UNAUTHENTICATED');
    expect(unauth.message).toContain(`bearer token from ${files.wrong}`);

    const bob = await connect({ pinsFile, credentials: { token: { file: files.limited } } });
    const forbidden = await failure(bob.conn.client.listPods());
    expect(forbidden.code).toBe('FORBIDDEN');
    expect(forbidden.message).toContain('bob access to nodes/proxy');
    expect(forbidden.nextStep).toContain('"nodes/proxy"');
    expect((await bob.conn.client.stats()).pods.size).toBeGreaterThan(0);

    sim.rest!.setAuthorizer('webhook-down');
    const carol = await connect({ pinsFile, credentials: { clientCert: { file: files.cert }, clientKey: { file: files.key } } });
    const down = await failure(carol.conn.client.listPods());
    expect(down.code).toBe('AUTHORIZER_DOWN');
    expect(down.message).toContain('control plane is unreachable');
    expect(down.nextStep).toContain('Pods API socket');
    // A token is reviewed by the API server too: it fails as 401, and the next step says why that can be.
    const alice = await connect({ pinsFile });
    expect((await failure(alice.conn.client.listPods())).nextStep).toContain('while the control plane is down');
  });

  it('names the port when nothing listens there, and reads the read-only port without credentials', async () => {
    const port = await closedPort();
    const { conn } = await connect({ port });
    const refused = await failure(conn.client.listPods());
    expect(refused.message).toContain(`Nothing listens on 127.0.0.1:${port}`);
    expect(refused.nextStep).toContain('--read-only');
    expect(refused.retryable).toBe(true);
    const { conn: roClosed } = await connect({ port, readOnly: true, credentials: {} });
    expect((await failure(roClosed.client.listPods())).nextStep).toContain('read-only port (10255) is off on most clusters');

    const ro = await connect({ readOnly: true, port: sim.rest!.readOnlyPort!, credentials: {} });
    expect((await ro.conn.client.listPods()).pods).toHaveLength(sim.store.size);
  });

  it('runs a bridge command on the node where sshd forbids TCP forwarding, and says so', async () => {
    const events: string[] = [];
    const { conn } = await connect({ harness: noForwarding, pinsFile: await pinned(undefined, noForwarding.host), onChannelEvent: (e) => events.push(e.type) });
    const { pods } = await conn.client.listPods();
    expect(pods).toHaveLength(sim.store.size);
    expect(events).toContain('switched-to-command');
    expect(conn.channel.activeMode()).toBe('command');

    const direct = await connect({ harness: noForwarding, pinsFile: await pinned(undefined, noForwarding.host), tcpBridge: 'direct' });
    const err = await failure(direct.conn.client.listPods());
    expect(err.message).toContain('refuses TCP forwarding');
  });

  it('polls /pods into ADDED/MODIFIED/DELETED events that converge to the simulator, as a watch and through the app\'s node link', async () => {
    const { conn } = await connect({ pinsFile: await pinned(), pollIntervalMs: 150 });
    const changes: string[] = [];
    const w = startPodWatch(conn.client, { change: (c) => changes.push(c.type) });
    watches.push(w);
    await eventually(() => w.state().state === 'live', 'the first poll');
    expect(w.api()).toBe('rest');
    expect(divergence(w.held())).toEqual([]);

    // The app's node link on the same kubelet: a node whose settings say REST, with the token file.
    const { source, shown, states, readFrom } = await openRestNodeLink(sim);
    try {
      await eventually(() => states.some((s) => s.phase === 'live'), 'the node link to go live');
      expect(readFrom).toEqual(['rest']);
      for (let round = 0; round < 3; round++) sim.churn.step(15);
      await eventually(() => divergence(w.held()).length === 0 && divergence(shown).length === 0, 'both to follow 45 changes', 15_000);
      expect(changes.length).toBeGreaterThan(0);
      expect(new Set(changes).size).toBeGreaterThan(1);
    } finally {
      await source.close();
    }
  });

  it("leaves out a pod /pods has that does not fit, naming it on the node as the Pods API path does, until it is gone", async () => {
    const faulty = await startSimulatedKubelet({ socketPath: join(dir, 'faulty.sock'), pods: 6, seed: 23, faults: { undecodable: 1 }, rest: { tokens: { [TOKEN]: 'alice' } } });
    const { source, shown, states } = await openRestNodeLink(faulty);
    try {
      // The simulator breaks the second pod (pod-faults.ts).
      const bad = faulty.store.list()[1]!.metadata as PodObject;
      const good = faulty.store.uids().filter((uid) => uid !== bad.uid);
      const live = () => states.filter((s) => s.phase === 'live').at(-1) as Extract<NodeState, { phase: 'live' }> | undefined;
      await eventually(() => live() !== undefined, 'the node link to go live');
      expect(live()!.leftOut).toEqual([
        `left out a pod that does not decode: cannot decode pod ${bad.namespace as string}/${bad.name as string} (/pods items[1], uid ${bad.uid as string}): does not fit the pod schema: expected an object (PodStatus), found string "cut short" (in status)`,
      ]);
      expect([...shown.keys()].sort()).toEqual([...good].sort());

      // Deleted, it leaves /pods without a deletion that names it: the warning goes all the same.
      faulty.store.apply({ op: 'delete', uid: bad.uid as string });
      await eventually(() => live()?.leftOut === undefined, 'the warning to go', 30_000);
      expect([...shown.keys()].sort()).toEqual([...good].sort());
    } finally {
      await source.close();
      await faulty.stop();
    }
  }, 60_000);

  it('shows a pod the container runtime still runs that the kubelet no longer lists', async () => {
    const { conn } = await connect({ pinsFile: await pinned() });
    const ghost = sim.generator.existing(Date.now());
    sim.rest!.lingering.set('ghost', ghost);
    try {
      const [running, { pods }] = await Promise.all([conn.client.runningPods(), conn.client.listPods()]);
      const diff = runtimeDifference(running, pods.map((p) => ({ ...p, phase: String((p.pod.status as PodObject | undefined)?.phase ?? '') })));
      expect(diff.runtimeOnly.map((p) => p.uid)).toEqual([(ghost.metadata as PodObject).uid]);
      expect(diff.runtimeOnly[0]!.containers).toEqual(((ghost.spec as PodObject).containers as PodObject[]).map((c) => c.name));
      expect(diff.notRunning).toEqual([]);
    } finally {
      sim.rest!.lingering.delete('ghost');
    }
  });

  it('reads CPU and memory per pod and container, and probe counts per container', async () => {
    const { conn } = await connect({ pinsFile: await pinned() });
    const stats = await conn.client.stats();
    const running = sim.store.list().filter((p) => containerStatuses(p).some((s) => (s.state as PodObject | undefined)?.running));
    expect([...stats.pods.keys()].sort()).toEqual(running.map((p) => String((p.metadata as PodObject).uid)).sort());
    for (const pod of stats.pods.values()) {
      const sum = pod.containers.reduce((a, c) => a + c.cpuCores!, 0);
      expect(pod.cpuCores).toBeCloseTo(sum, 6);
      expect(pod.memoryWorkingSetBytes).toBe(pod.containers.reduce((a, c) => a + c.memoryWorkingSetBytes!, 0));
    }
    expect(stats.node.name).toBe(sim.nodeName);

    const probes = await conn.client.probes();
    // Only running containers that have the probe are counted (a probe still in its initial delay has no count yet).
    const probed = new Map(
      running.flatMap((p) =>
        (((p.spec as PodObject).containers as PodObject[]) ?? []).map((c) => [probeKey(String((p.metadata as PodObject).uid), String(c.name)), c] as const),
      ),
    );
    expect(probes.size).toBeGreaterThan(0);
    for (const [key, types] of probes) {
      const spec = probed.get(key);
      expect(spec, key).toBeDefined();
      if (types.liveness) expect(spec!.livenessProbe).toBeDefined();
      if (types.readiness) expect(spec!.readinessProbe).toBeDefined();
    }
    const notReady = running.flatMap((p) =>
      containerStatuses(p)
        .filter((s) => s.ready === false && (s.state as PodObject | undefined)?.running && (((p.spec as PodObject).containers as PodObject[]).find((c) => c.name === s.name)?.readinessProbe))
        .map((s) => probeKey(String((p.metadata as PodObject).uid), String(s.name))),
    );
    for (const key of notReady) expect(probes.get(key)?.readiness?.successful ?? 0).toBe(0);
  });
});

