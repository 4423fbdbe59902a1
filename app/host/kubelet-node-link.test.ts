import { mkdtempSync, writeFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { createServer, type Socket } from 'node:net';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSshHarness, type SshHarness } from '../../e2e/harness/ssh-harness';
import type { NodeState, SshNodeSpec } from '../contract';
import { eventually } from '../kubelet/testing/oracle';
import { encodePod } from '../pod/encode';
import { podBytesToKubectlJson, podToKubectlJson } from '../pod/kubectl-json';
import type { DecodedPod, PodObject } from '../pod/pod-tree';
import { decodeStored, type PodBytes, type StoredPod } from '../pod/stored-pod';
import { startSimulatedKubelet, type SimulatedKubelet } from '../sim/kubelet-server';
import { closedPort, scriptedPrompter } from '../ssh/testing/ssh-test-kit';
import { openKubeletNodeLink, type KubeletNodeLinkOptions } from './kubelet-node-link';
import type { NodeLink } from '../core/node-link';
import { rowOfPod, type IncomingPod } from '../core/node-pods';
import { matrixPodOf, workloadMatrixSteps } from '../fleet/workload-matrix';
import { workloadKey, workloadOf } from '../fleet/workload-identity';
import { runAtOnce } from '../util/time-slices';
import { SharedValues } from '../util/shared-values';

/** What the inspector would see: states, the pod set it rebuilds from reset() and change(). */
function recorder() {
  const rec = { states: [] as NodeState[], resets: 0, pods: new Map<string, DecodedPod>() };
  const uid = (p: DecodedPod) => (p.pod.metadata as PodObject).uid as string;
  return {
    rec,
    events: {
      state: (s: NodeState) => rec.states.push(s),
      // A kubelet's pods come as their bytes: decoded here as the hub decodes them on demand.
      reset: (pods: StoredPod[]) => {
        rec.resets++;
        rec.pods = new Map(pods.map(decodeStored).map((p) => [uid(p), p]));
      },
      change: (type: 'ADDED' | 'MODIFIED' | 'DELETED', stored: StoredPod) => {
        const pod = decodeStored(stored);
        if (type === 'DELETED') rec.pods.delete(uid(pod));
        else rec.pods.set(uid(pod), pod);
      },
    },
  };
}

const phaseOf = (rec: { states: NodeState[] }) => rec.states.at(-1)?.phase;
const sameUids = (rec: { pods: Map<string, DecodedPod> }, k: SimulatedKubelet) =>
  rec.pods.size === k.store.size && k.store.uids().every((u) => rec.pods.has(u));
/** Every pod, decoded from what the link handed on (its bytes), prints exactly as the kubelet's own pod does. */
const printedAlike = (rec: { pods: Map<string, DecodedPod> }, k: SimulatedKubelet) =>
  sameUids(rec, k) && k.store.uids().every((u) => podToKubectlJson(rec.pods.get(u)!.pod) === podBytesToKubectlJson(encodePod(k.store.get(u)!)).json);

/**
 * An ssh_config whose known_hosts is a new empty file: OpenSSH records a key accepted at a prompt (it has no
 * "accept once"), and it must not land in the user's own known_hosts, nor make another test's host known.
 */
function ownKnownHosts(): string {
  const dir = mkdtempSync(join(tmpdir(), 'nodescope-link-kh-'));
  writeFileSync(join(dir, 'config'), `Host *\n  UserKnownHostsFile ${join(dir, 'known_hosts')}\n`, { mode: 0o600 });
  return join(dir, 'config');
}

function open(spec: Omit<SshNodeSpec, 'kind'>, options: KubeletNodeLinkOptions = {}, answers: Parameters<typeof scriptedPrompter>[0] = {}) {
  const { rec, events } = recorder();
  const link = openKubeletNodeLink({ nodeId: 'n1', spec: { kind: 'ssh', ...spec }, prompter: scriptedPrompter(answers), events }, { sshConfigFile: ownKnownHosts(), ...options });
  return { rec, link };
}

describe('kubelet NodeLink on a local socket (the demo node)', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'nodescope-link-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('goes connecting -> live with a reset of every pod, follows changes, and resets again after a kubelet restart', async () => {
    const socketPath = join(dir, 'demo.sock');
    let k = await startSimulatedKubelet({ socketPath, pods: 40, seed: 3 });
    const { rec, link } = open({ host: 'simulated', socketPath }, { localSocket: socketPath });
    try {
      await eventually(() => phaseOf(rec) === 'live', 'live');
      expect(rec.states[0]).toEqual({ phase: 'connecting', attempt: 1 });
      // The list made before the first watch, then the watch's replay merged in (first-rows-from-list.test.ts).
      expect(rec.resets).toBe(2);
      expect(sameUids(rec, k)).toBe(true);
      expect(printedAlike(rec, k)).toBe(true);
      k.churn.step(30);
      await eventually(() => printedAlike(rec, k), 'the changes');
      const stoppedAt = Date.now();
      await k.stop();
      await eventually(() => phaseOf(rec) === 'reconnecting', 'reconnecting');
      const reconnecting = rec.states.at(-1) as Extract<NodeState, { phase: 'reconnecting' }>;
      // A wall-clock time the retry is due at (the UI counts down to it), not a delay: later than the loss.
      expect(reconnecting.retryAt).toBeGreaterThanOrEqual(stoppedAt);
      k = await startSimulatedKubelet({ socketPath, pods: 12, seed: 9 });
      // Its pods shown already, the node takes the new watch's replay alone: no list first.
      await eventually(() => rec.resets === 3 && sameUids(rec, k), 'a reset to the restarted kubelet', 15_000);
      expect(phaseOf(rec)).toBe('live');
    } finally {
      await link.close();
      await k.stop();
    }
  }, 30_000);

  it('keeps the bytes held already of a pod received again unchanged (a reconnect), and its own copy of a changed one', async () => {
    const socketPath = join(dir, 'held.sock');
    const k = await startSimulatedKubelet({ socketPath, pods: 6, seed: 5 });
    const [same, changed] = k.store.uids();
    // What the hub's history holds of two pods: one as the kubelet sends it now, one as it was before a change.
    const held = new Map([
      [same!, encodePod(k.store.get(same!)!)],
      [changed!, encodePod({ ...k.store.get(changed!)!, metadata: { ...(k.store.get(changed!)!.metadata as PodObject), name: 'renamed' } })],
    ]);
    let reset: IncomingPod[] = [];
    const link = openKubeletNodeLink(
      {
        nodeId: 'n1',
        spec: { kind: 'ssh', host: 'simulated', socketPath },
        prompter: scriptedPrompter({}),
        heldBytes: (uid) => held.get(uid),
        events: { state: () => {}, reset: (pods) => (reset = pods), change: () => {} },
      },
      { localSocket: socketPath },
    );
    try {
      await eventually(() => reset.length === 6, 'the first list');
      const bytesOf = (uid: string) => (reset.find((p) => p.row?.uid === uid) as PodBytes).bytes;
      expect(bytesOf(same!)).toBe(held.get(same!));
      expect(bytesOf(changed!)).not.toBe(held.get(changed!));
      expect(podBytesToKubectlJson(bytesOf(changed!)).json).toBe(podBytesToKubectlJson(encodePod(k.store.get(changed!)!)).json);
    } finally {
      await link.close();
      await k.stop();
    }
  });

  it('takes the row of each pod and what the fleet matrix reads of it from the fields it decodes, as the whole pod gives them', async () => {
    const socketPath = join(dir, 'rows.sock');
    const k = await startSimulatedKubelet({ socketPath, pods: 60, seed: 7 });
    let reset: IncomingPod[] = [];
    const link = openKubeletNodeLink(
      { nodeId: 'n1', spec: { kind: 'ssh', host: 'simulated', socketPath }, prompter: scriptedPrompter({}), events: { state: () => {}, reset: (pods) => (reset = pods), change: () => {} } },
      { localSocket: socketPath },
    );
    try {
      await eventually(() => reset.length === 60, 'the first list');
      for (const pod of reset) {
        const whole = decodeStored(pod as StoredPod).pod;
        expect(pod.row).toEqual(rowOfPod(whole, null));
        expect(pod.matrix).toEqual(matrixPodOf(whole, new SharedValues()));
      }
    } finally {
      await link.close();
      await k.stop();
    }
  });

  it("shows drift between two nodes whose pods of one workload differ in one container field, though equal containers are held once", async () => {
    const now = Date.now();
    const sockets = ['a', 'b'].map((n) => join(dir, `drift-${n}.sock`));
    const nodes = await Promise.all(sockets.map((socketPath, i) => startSimulatedKubelet({ socketPath, pods: 60, seed: 8, nodeName: `worker-${i}`, podsAsOf: now })));
    const [a, b] = nodes as [SimulatedKubelet, SimulatedKubelet];
    const podOf = (kind: string) => a.store.list().find((p) => workloadOf(p).kind === kind)!;
    const deployment = workloadOf(podOf('Deployment'));
    const daemonSet = workloadOf(podOf('DaemonSet'));
    // On worker-b: the Deployment's pods run another image, the DaemonSet's another env value.
    for (const pod of b.store.list()) {
      const key = workloadKey(workloadOf(pod));
      if (key !== workloadKey(deployment) && key !== workloadKey(daemonSet)) continue;
      const copy = structuredClone(pod);
      const main = ((copy.spec as PodObject).containers as PodObject[])[0]!;
      if (key === workloadKey(deployment)) main.image = `${String(main.image)}-hotfix`;
      else main.env = [...((main.env as PodObject[] | undefined) ?? []), { name: 'MODE', value: 'debug' }];
      b.store.apply({ op: 'update', pod: copy });
    }
    const held = new Map<string, IncomingPod[]>();
    const links = sockets.map((socketPath, i) =>
      openKubeletNodeLink(
        { nodeId: `n${i}`, spec: { kind: 'ssh', host: 'simulated', socketPath }, prompter: scriptedPrompter({}), events: { state: () => {}, reset: (pods) => held.set(`n${i}`, pods), change: () => {} } },
        { localSocket: socketPath },
      ),
    );
    try {
      await eventually(() => held.get('n0')?.length === 60 && held.get('n1')?.length === 60, 'both lists');
      const matrix = runAtOnce(workloadMatrixSteps(['n0', 'n1'].map((id) => ({ id, pods: held.get(id)!.map((p) => p.matrix!) }))));
      expect(matrix.rows.flatMap((r) => r.drift.map((d) => `${r.key} ${d.kind}`)).sort()).toEqual([`${workloadKey(daemonSet)} env`, `${workloadKey(deployment)} image`].sort());
      // Pods with equal containers, on either node, hold one object for them.
      const all = [...held.values()].flat().map((p) => p.matrix!.containers);
      const alike = all.flatMap((c0, i) => all.slice(i + 1).filter((c1) => isDeepStrictEqual(c0, c1)).map((c1) => [c0, c1]));
      expect(alike.length).toBeGreaterThan(20);
      for (const [c0, c1] of alike) expect(c1).toBe(c0);
    } finally {
      await Promise.all(links.map((l) => l.close()));
      await Promise.all(nodes.map((k) => k.stop()));
    }
  });

  it('stops with what to change when the socket was never there, instead of retrying for ever', async () => {
    const socketPath = join(dir, 'never.sock');
    const { rec, link } = open({ host: 'simulated', socketPath }, { localSocket: socketPath });
    try {
      await eventually(() => phaseOf(rec) === 'error', 'the error state');
      const error = rec.states.at(-1) as Extract<NodeState, { phase: 'error' }>;
      expect(error.cause).toBe(`No kubelet socket at ${socketPath}`);
      // The app has no --socket flag and no node settings: the step names what it has.
      expect(error.nextStep).toMatch(/PodsAPI feature gate.*edit the node \(Edit… on it in the sidebar or above its pods\) and save it with the right path in its “Pods API socket” field/);
      expect(error.nextStep).not.toMatch(/add it again/);
      expect(error.nextStep).not.toMatch(/--socket|node settings/);
      expect(rec.states.map((s) => s.phase)).not.toContain('reconnecting');
    } finally {
      await link.close();
    }
  });

  it('names the add-node field to fix when the socket given is the wrong one (the PodResources socket)', async () => {
    const k = await startSimulatedKubelet({ socketPath: join(dir, 'right.sock'), pods: 2, seed: 6, podResourcesSocketPath: join(dir, 'pod-resources.sock') });
    const socketPath = join(dir, 'pod-resources.sock');
    const { rec, link } = open({ host: 'simulated', socketPath }, { localSocket: socketPath });
    try {
      await eventually(() => phaseOf(rec) === 'error', 'the error state');
      const error = rec.states.at(-1) as Extract<NodeState, { phase: 'error' }>;
      expect(error.cause).toMatch(/^Neither Pods API shape answers/);
      expect(error.nextStep).toMatch(/not the PodResources one.*edit the node \(Edit….*the right path in its “Pods API socket” field/);
      expect(error.nextStep).not.toMatch(/add it again/);
      expect(error.nextStep).not.toMatch(/--socket|node settings/);
    } finally {
      await link.close();
      await k.stop();
    }
  });

  it('keeps retrying a socket that goes away after the node was live (a restarting kubelet), and comes back', async () => {
    const socketPath = join(dir, 'restart.sock');
    let k = await startSimulatedKubelet({ socketPath, pods: 5, seed: 4 });
    const { rec, link } = open({ host: 'simulated', socketPath }, { localSocket: socketPath });
    try {
      await eventually(() => phaseOf(rec) === 'live', 'live');
      await k.stop();
      await rm(socketPath, { force: true });
      await eventually(() => rec.states.filter((s) => s.phase === 'reconnecting').length >= 2, 'two retries', 15_000);
      expect(rec.states.filter((s) => s.phase === 'reconnecting').map((s) => (s as { cause: string }).cause)).toContain(`No kubelet socket at ${socketPath}`);
      k = await startSimulatedKubelet({ socketPath, pods: 3, seed: 8 });
      await eventually(() => phaseOf(rec) === 'live' && sameUids(rec, k), 'live again', 15_000);
      expect(rec.states.map((s) => s.phase)).not.toContain('error');
    } finally {
      await link.close();
      await k.stop();
    }
  }, 30_000);
});

describe('kubelet NodeLink to a node with odd pods', () => {
  it('goes live with the good pods and names in its state each pod it leaves out, as they come and go', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'nodescope-link-'));
    const socketPath = join(dir, 'faulty.sock');
    const k = await startSimulatedKubelet({ socketPath, pods: 10, seed: 4, faults: { undecodable: 1, emptyUids: 1 } });
    const { rec, link } = open({ host: 'simulated', socketPath }, { localSocket: socketPath });
    const meta = (i: number) => k.store.list()[i]!.metadata as PodObject;
    try {
      await eventually(() => phaseOf(rec) === 'live', 'live');
      // Index 1 does not decode, index 3 has no uid (pod-faults.ts): the other 8 are there.
      expect([...rec.pods.keys()].sort()).toEqual(k.store.uids().filter((_, i) => i !== 1 && i !== 3));
      const live = () => rec.states.at(-1) as Extract<NodeState, { phase: 'live' }>;
      expect(live().leftOut).toHaveLength(2);
      expect(live().leftOut![0]).toMatch(new RegExp(`cannot decode pod ${meta(1).namespace as string}/${meta(1).name as string} \\(WatchPods message 1 \\(ADDED\\), uid ${meta(1).uid as string}\\)`));
      expect(live().leftOut![1]).toBe(`pod ${meta(3).namespace as string}/${meta(3).name as string} has no metadata.uid; Nodescope follows pods by uid, so it is not shown`);
      // The pod with no uid goes away: the notice follows, and the link stays live.
      k.store.apply({ op: 'delete', uid: meta(3).uid as string });
      await eventually(() => live().leftOut?.length === 1, 'one pod left out');
      expect(phaseOf(rec)).toBe('live');
    } finally {
      await link.close();
      await k.stop();
      await rm(dir, { recursive: true, force: true });
    }
  }, 30_000);
});

describe('kubelet NodeLink to a node that is down', () => {
  it('keeps trying while it finds no SSH server, as a dropped watch does, and stops when closed', async () => {
    const port = await closedPort();
    // No socket path: the link dials at once to find the socket, and that dial is refused.
    const { rec, link } = open({ host: '127.0.0.1', port, user: 'nobody' });
    try {
      await eventually(() => rec.states.filter((s) => s.phase === 'reconnecting').length >= 2, 'two retries', 15_000);
      const retry = rec.states.find((s) => s.phase === 'reconnecting') as Extract<NodeState, { phase: 'reconnecting' }>;
      expect(retry.cause).toMatch(/refused/i);
      expect(rec.states.map((s) => s.phase)).not.toContain('error');
    } finally {
      await link.close();
    }
    const seen = rec.states.length;
    await new Promise((r) => setTimeout(r, 1500));
    expect(rec.states.length).toBe(seen);
  }, 30_000);
});

describe('kubelet NodeLink to a host name that does not exist', () => {
  it('stops with the name and what to check, instead of retrying for ever', async () => {
    const { rec, link } = open({ host: 'node-1.nodescope.invalid', user: 'nobody' });
    try {
      await eventually(() => phaseOf(rec) === 'error', 'the error state', 15_000);
      const error = rec.states.at(-1) as Extract<NodeState, { phase: 'error' }>;
      expect(error.cause).toContain('node-1.nodescope.invalid does not exist in DNS');
      expect(error.nextStep).toMatch(/Check the host name/);
      expect(rec.states.map((s) => s.phase)).not.toContain('reconnecting');
    } finally {
      await link.close();
    }
  });
});

describe('kubelet NodeLink to a host that accepts and never speaks SSH', () => {
  it('drops the hanging dial when closed, instead of holding the connection until the connect timeout', async () => {
    const accepted: Socket[] = [];
    const hungUp: Socket[] = [];
    const silent = createServer((sock) => {
      accepted.push(sock);
      sock.on('error', () => {});
      sock.once('close', () => hungUp.push(sock));
      // Read (and drop) the client's banner, or the hang-up stays queued behind it.
      sock.resume();
    });
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    const { port } = silent.address() as { port: number };
    // A connect timeout of ten minutes, past the test's own timeout: only the close can end the dial in time.
    const dir = await mkdtemp(join(tmpdir(), 'nodescope-silent-'));
    const sshConfigFile = join(dir, 'config');
    await writeFile(sshConfigFile, 'Host *\n  ConnectTimeout 600\n');
    try {
      // No socket path: the link dials at once to find the socket, and that dial waits for a banner.
      const { rec, link } = open({ host: '127.0.0.1', port, user: 'nobody' }, { sshConfigFile });
      await eventually(() => accepted.length === 1, 'the dial to reach the host');
      await new Promise((r) => setTimeout(r, 100));
      await link.close();
      await eventually(() => hungUp.length === 1, 'the host to see the connection closed');
      // A closed node shows nothing more: the cancelled dial is not reported as an error or a retry.
      await new Promise((r) => setTimeout(r, 200));
      expect(rec.states).toEqual([]);
    } finally {
      for (const sock of accepted) sock.destroy();
      await new Promise<void>((r) => silent.close(() => r()));
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('kubelet NodeLink over SSH', () => {
  let h: SshHarness;
  let sim: SimulatedKubelet;
  const links: NodeLink[] = [];
  beforeAll(async () => {
    h = await startSshHarness({
      startKubelet: async (socketPath) => (sim = await startSimulatedKubelet({ socketPath, pods: 110, seed: 5 })),
    });
  }, 60_000);
  afterAll(async () => {
    await Promise.all(links.map((l) => l.close()));
    await h?.stop();
  });

  it('connects with the spec the add-node dialog collects, asking about the unknown host key', async () => {
    const { rec, link } = open(
      // The built-in transport: only it accepts a key once without writing it to the user's known_hosts.
      { host: h.host, port: h.port, user: 'root', identityFile: h.root.key, socketPath: h.socketPath, ssh: 'builtin' },
      {},
      { hostKey: ['once'] },
    );
    links.push(link);
    await eventually(() => phaseOf(rec) === 'live', 'live', 20_000);
    expect(sameUids(rec, sim)).toBe(true);
  }, 30_000);

  // Without a socket path the link first dials to find the socket on the node.
  it.each([
    ['a socket path', true],
    ['the socket to be found on the node', false],
  ])('closes promptly while the connection waits for a host key answer that never comes (with %s)', async (_, withSocket) => {
    const { rec, events } = recorder();
    const silent = { ...scriptedPrompter(), hostKey: () => new Promise<never>(() => {}) };
    // The prompter's question is the built-in transport's; OpenSSH's own is covered by the openssh tests.
    const spec: SshNodeSpec = { kind: 'ssh', host: h.host, port: h.port, user: 'root', identityFile: h.root.key, ssh: 'builtin', ...(withSocket ? { socketPath: h.socketPath } : {}) };
    const link = openKubeletNodeLink({ nodeId: 'n2', spec, prompter: silent, events }, { sshConfigFile: ownKnownHosts() });
    await new Promise((r) => setTimeout(r, 500));
    // The prompt never answers, so only a close that drops the question ends before the test's timeout.
    await link.close();
    expect(rec.states.map((s) => s.phase)).not.toContain('live');
  }, 30_000);

  // What waiting cannot fix stops at the first attempt, with what to change (docs/retries.md).
  it.each([
    ['no kubelet socket at the given path', (h: SshHarness): Omit<SshNodeSpec, 'kind'> => ({ host: h.host, port: h.port, user: 'root', identityFile: h.root.key, socketPath: '/run/nodescope-test/missing.sock' }), /No kubelet socket at \/run\/nodescope-test\/missing\.sock/, /PodsAPI feature gate/],
    ['no kubelet socket found on the node', (h: SshHarness): Omit<SshNodeSpec, 'kind'> => ({ host: h.host, port: h.port, user: 'root', identityFile: h.root.key }), /No kubelet socket at \/var\/lib\/kubelet/, /PodsAPI feature gate/],
    ['authentication refused', (h: SshHarness): Omit<SshNodeSpec, 'kind'> => ({ host: h.host, port: h.port, user: 'root', identityFile: h.noSudo.key, socketPath: h.socketPath }), /Authentication failed for root@/, /IdentityFile/],
  ])('stops with what to change when there is %s', async (_, spec, cause, nextStep) => {
    const { rec, link } = open(spec(h), {}, { hostKey: ['once'] });
    links.push(link);
    await eventually(() => phaseOf(rec) === 'error', 'the error state', 20_000);
    const error = rec.states.at(-1) as Extract<NodeState, { phase: 'error' }>;
    expect(error.cause).toMatch(cause);
    expect(error.nextStep).toMatch(nextStep);
    expect(rec.states.map((s) => s.phase)).not.toContain('reconnecting');
  }, 30_000);

  it('shows a node whose link stops answering as silent, its pods kept as stale, then gives the link up and goes live again', async () => {
    // ServerAliveInterval 1 from ssh_config: silent after 1.5 s without an answer, given up after 3 unanswered.
    const dir = await mkdtemp(join(tmpdir(), 'nodescope-silent-'));
    const sshConfigFile = join(dir, 'config');
    await writeFile(sshConfigFile, `Host *\n  ServerAliveInterval 1\n  ServerAliveCountMax 3\n\n${await readFile(h.sshConfig, 'utf8')}`);
    const { rec, link } = open({ host: 'target', socketPath: h.socketPath }, { sshConfigFile });
    links.push(link);
    try {
      await eventually(() => phaseOf(rec) === 'live', 'live', 20_000);
      const live = rec.states.length;
      h.pauseConnections();
      await eventually(() => phaseOf(rec) === 'silent', 'silent', 20_000);
      const silent = rec.states.at(-1) as Extract<NodeState, { phase: 'silent' }>;
      expect(silent.silentSince).toBeLessThanOrEqual(Date.now());
      // The pods stay on screen as last heard, marked stale by their state.
      expect(sameUids(rec, sim)).toBe(true);
      await eventually(() => rec.states.slice(live).some((s) => s.phase === 'reconnecting') && phaseOf(rec) === 'live', 'reconnected and live again', 20_000);
      const dropped = rec.states.slice(live).find((s) => s.phase === 'reconnecting') as Extract<NodeState, { phase: 'reconnecting' }>;
      expect(dropped.cause).toMatch(/stopped answering keepalives/);
      expect(rec.states.slice(live).map((s) => s.phase)).not.toContain('error');
      expect(sameUids(rec, sim)).toBe(true);
    } finally {
      h.resumeConnections();
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('shows an error with the sudoers line for a user who may not open the socket', async () => {
    const { rec, link } = open(
      { host: h.host, port: h.port, user: h.noSudo.name, identityFile: h.noSudo.key, socketPath: h.socketPath },
      {},
      { hostKey: ['once'] },
    );
    links.push(link);
    await eventually(() => phaseOf(rec) === 'error', 'the error state', 20_000);
    const error = rec.states.at(-1) as Extract<NodeState, { phase: 'error' }>;
    expect(error.nextStep).toContain(`${h.noSudo.name} ALL=(root) NOPASSWD:`);
  }, 30_000);
});
