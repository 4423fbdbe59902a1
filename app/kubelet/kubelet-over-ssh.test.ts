// The kubelet client and its watch through the real SSH path: OpenSSH sshd on loopback, the
// simulated kubelet on its root-only socket, streamlocal for root and the sudo bridge otherwise.
import { dirname, join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startSshHarness, type SshHarness } from '../../e2e/harness/ssh-harness';
import { applyFieldMask, parseFieldMask } from '../mask/field-mask';
import { encodePod } from '../pod/encode';
import { podDigest } from './received-pod';
import type { PodObject } from '../pod/pod-tree';
import { startSimulatedKubelet, type SimulatedKubelet } from '../sim/kubelet-server';
import type { NodeChannels } from '../ssh/node-channels';
import { openKubeletTransport, type KubeletTransport } from '../ssh/kubelet-transport';
import { createSshSession, type SshSession } from '../ssh/ssh-session';
import type { SshTarget } from '../ssh/ssh-connection';
import { harnessHop, harnessTarget, scriptedPrompter } from '../ssh/testing/ssh-test-kit';
import { createKubeletClient, type KubeletClient, type KubeletClientOptions } from './kubelet-client';
import { KubeletError } from './kubelet-error';
import { startPodWatch, type PodWatch, type WatchState } from './pod-watch';
import { divergence, eventually } from './testing/oracle';

let h: SshHarness;
let sim: SimulatedKubelet;
const opened: { transport: KubeletTransport; client: KubeletClient }[] = [];
const watches: PodWatch[] = [];

const documentedSocket = () => join(dirname(h.socketPath), 'documented.sock');
const startKubelet = (socketPath: string) =>
  startSimulatedKubelet({ socketPath, documentedSocketPath: join(dirname(socketPath), 'documented.sock'), pods: 110, seed: 7 });

/**
 * `session`, with its streamlocal opens (the n-th from 1) waiting for `before.open(n)` and each refusal from sshd
 * held until `before.refusal(n)` has run: what those do to the node happens exactly before an open, or between a
 * failed open and the look at why it failed.
 */
function controllingOpens(session: SshSession, before: { open?(n: number): Promise<void>; refusal(n: number): Promise<void> }): SshSession {
  let opens = 0;
  // One stand-in per connection, as the real channels are one: the bridge remembers connections it forwarded on.
  const standIns = new WeakMap<NodeChannels, NodeChannels>();
  const control = (channels: NodeChannels): NodeChannels => ({
    ...channels,
    openUnixSocket: async (path) => {
      const n = ++opens;
      await (before.open?.(n) ?? Promise.resolve());
      try {
        return await channels.openUnixSocket(path);
      } catch (err) {
        await before.refusal(n);
        throw err;
      }
    },
  });
  return {
    ...session,
    connection: async () => {
      const conn = await session.connection();
      if (!standIns.has(conn.channels)) standIns.set(conn.channels, control(conn.channels));
      return { ...conn, channels: standIns.get(conn.channels)! };
    },
  };
}

/** The watch over SSH through `controllingOpens`, live. */
async function controlledWatch(before: Parameters<typeof controllingOpens>[1]) {
  const session = controllingOpens(createSshSession(harnessTarget(h, h.root), { prompter: scriptedPrompter() }), before);
  const transport = await openKubeletTransport(harnessTarget(h, h.root), { socketPath: h.socketPath, prompter: scriptedPrompter(), session });
  const client = createKubeletClient({ target: transport.open, socketPath: h.socketPath, transportError: () => transport.lastError() });
  opened.push({ transport, client });
  const watched = watch(client);
  await eventually(() => watched.w.state().state === 'live', 'live');
  return { ...watched, transport };
}

/** Stops the kubelet and starts it again on the same socket (its pods as a restarted kubelet lists them). */
async function restartKubelet(): Promise<void> {
  await sim.stop();
  sim = await startKubelet(h.socketPath);
}

beforeAll(async () => {
  h = await startSshHarness({
    startKubelet: async (socketPath) => {
      sim = await startKubelet(socketPath);
      // Whichever kubelet runs at the end (a test may restart it).
      return { stop: () => sim.stop() };
    },
  });
}, 60_000);
afterEach(async () => {
  await Promise.all(watches.splice(0).map((w) => w.close()));
  for (const { client, transport } of opened.splice(0)) {
    client.close();
    await transport.close();
  }
  sim.churn.stop();
});
afterAll(async () => {
  await h?.stop();
});

async function connect(target: SshTarget, options: Partial<KubeletClientOptions> & { socketPath?: string } = {}) {
  const socketPath = options.socketPath ?? h.socketPath;
  const transport = await openKubeletTransport(target, { socketPath, prompter: scriptedPrompter() });
  const client = createKubeletClient({ target: transport.open, socketPath, transportError: () => transport.lastError(), ...options });
  opened.push({ transport, client });
  return { transport, client };
}

function watch(client: KubeletClient) {
  const states: WatchState[] = [];
  const w = startPodWatch(client, { state: (s) => states.push(s) }, { backoff: { initialMs: 100, factor: 2, maxMs: 1000, jitter: 0 } });
  watches.push(w);
  return { w, states };
}

const sameAsOracle = (pods: { uid: string; digest: string }[]) =>
  pods.length === sim.store.size && pods.every((p) => p.digest === podDigest(encodePod(sim.store.get(p.uid)!)));

describe('kubelet client over SSH', () => {
  it.each([
    ['shipped', () => h.socketPath],
    ['documented', documentedSocket],
  ] as const)('lists, gets and watches the %s API shape as root over streamlocal', async (shape, socket) => {
    const { client } = await connect(harnessTarget(h, h.root), { socketPath: socket() });
    const list = await client.listPods();
    expect(list.api).toBe(shape);
    expect(sameAsOracle(list.pods)).toBe(true);
    const uid = sim.store.uids()[10]!;
    expect((await client.getPod(uid)).pod.uid).toBe(uid);
    const { w } = watch(client);
    await eventually(() => w.state().state === 'live', 'live');
    sim.churn.step(40);
    await eventually(() => divergence(w, sim).length === 0, 'the held set to follow 40 changes');
  });

  it('applies a mask the same way whichever shape answers', async () => {
    const mask = parseFieldMask('metadata.name,status.podIP');
    const shipped = await (await connect(harnessTarget(h, h.root), { mask })).client.listPods();
    const documented = await (await connect(harnessTarget(h, h.root), { mask, socketPath: documentedSocket() })).client.listPods();
    expect(shipped.maskHonoured).toBe(false);
    expect(documented.maskHonoured).toBe(true);
    expect(documented.pods.map((p) => p.pod)).toEqual(shipped.pods.map((p) => p.pod));
  });

  it('watches with a mask through either shape and holds the same masked pods', async () => {
    const mask = parseFieldMask('metadata.labels,status.phase');
    const watchMasked = async (socketPath: string) => {
      const { client } = await connect(harnessTarget(h, h.root), { mask, socketPath });
      const w = startPodWatch(client, {}, { masked: true });
      watches.push(w);
      return w;
    };
    const shipped = await watchMasked(h.socketPath);
    const documented = await watchMasked(documentedSocket());
    await eventually(() => shipped.state().state === 'live' && documented.state().state === 'live', 'both live');
    sim.churn.step(30);
    // Label maps come back in wire (sorted) order, so compare as values, not as JSON text.
    const matches = (w: PodWatch) =>
      w.held().size === sim.store.size && sim.store.list().every((p) => isDeepStrictEqual(w.held().get((p.metadata as PodObject).uid as string)?.pod, applyFieldMask(p, mask)));
    await eventually(() => matches(shipped) && matches(documented), 'both masked sets to match the kubelet');
  });

  it('reaches the root-only socket as a non-root operator through the sudo bridge', async () => {
    const { client, transport } = await connect(harnessTarget(h, h.operator));
    expect(sameAsOracle((await client.listPods()).pods)).toBe(true);
    expect(transport.bridge.activeMode()).toBe('sudo');
  });

  it('tells a user without sudo rights the sudoers line to add', async () => {
    const { client } = await connect(harnessTarget(h, h.noSudo));
    const err = (await client.listPods().catch((e: unknown) => e)) as KubeletError;
    expect(err).toBeInstanceOf(KubeletError);
    expect(err.code).toBe('PERMISSION');
    expect(err.sshCode).toBe('SUDO_REFUSED');
    expect(err.nextStep).toContain(`${h.noSudo.name} ALL=(root) NOPASSWD:`);
  });

  it('names the feature gate when the socket is missing on the node', async () => {
    const { client } = await connect(harnessTarget(h, h.root), { socketPath: `${h.socketPath}.missing` });
    const err = (await client.listPods().catch((e: unknown) => e)) as KubeletError;
    expect(err.code).toBe('SOCKET_MISSING');
    expect(err.message).toContain(`${h.socketPath}.missing`);
    expect(err.nextStep).toContain('PodsAPI feature gate');
  });

  it('goes through a ProxyJump host', async () => {
    const { client } = await connect(harnessTarget(h, h.root, { proxyJump: [harnessHop(h, h.jump, h.jumpPort)] }));
    expect(sameAsOracle((await client.listPods()).pods)).toBe(true);
  });

  it('resumes a watch after the SSH connection is killed and converges to the kubelet', async () => {
    const { client } = await connect(harnessTarget(h, h.root));
    const { w, states } = watch(client);
    await eventually(() => w.state().state === 'live', 'live');
    sim.churn.setRate(50);
    sim.churn.start();
    await new Promise((r) => setTimeout(r, 200));
    await h.killConnections();
    await eventually(() => w.resyncs() >= 1, 'a re-sync after the kill', 20_000);
    await new Promise((r) => setTimeout(r, 300));
    sim.churn.stop();
    await eventually(() => divergence(w, sim).length === 0, 'the held set to match the kubelet');
    const reconnect = states.find((s) => s.state === 'reconnecting');
    expect(reconnect).toBeDefined();
  }, 30_000);

  describe('outlives a kubelet restarted at once', () => {
    /** Live again after the restart, or stopped in an error (then named). */
    const outlived = async ({ w, states }: Awaited<ReturnType<typeof controlledWatch>>) => {
      await eventually(() => (w.resyncs() >= 1 && w.state().state === 'live') || w.state().state === 'error', 'live again after the restart (or stopped)', 20_000);
      expect(states.flatMap((s) => (s.state === 'error' ? [s.cause.message] : []))).toEqual([]);
      await eventually(() => divergence(w, sim).length === 0, 'the held set to match the restarted kubelet');
    };

    it('opens again a socket that is back by the time a refused open is looked into', async () => {
      // The first refusal after the stop is held while the kubelet starts again, so the check of why the open
      // failed finds the socket there every time: what read as `AllowStreamLocalForwarding` and stopped the watch.
      let stopped = false;
      const restarts: number[] = [];
      const watched = await controlledWatch({
        refusal: async (n) => {
          if (!stopped || restarts.length) return;
          restarts.push(n);
          sim = await startKubelet(h.socketPath);
        },
      });
      stopped = true;
      await sim.stop();
      await outlived(watched);
      expect(restarts).toHaveLength(1);
      expect(watched.transport.bridge.activeMode()).toBe('streamlocal');
    }, 30_000);

    it('retries a socket that vanishes again for the second open, as a kubelet restarting in a loop does', async () => {
      // As above, and the socket is gone again when it is opened the second time, back once that is refused.
      let stopped = false;
      let first = 0;
      const watched = await controlledWatch({
        open: async (n) => {
          if (first && n === first + 1) await sim.stop();
        },
        refusal: async (n) => {
          if (!stopped || (first && n !== first + 1)) return;
          first ||= n;
          sim = await startKubelet(h.socketPath);
        },
      });
      stopped = true;
      await sim.stop();
      await outlived(watched);
      expect(watched.states.some((s) => s.state === 'reconnecting' && s.cause.sshCode === 'SOCKET_NOT_LISTENING')).toBe(true);
    }, 30_000);
  });

  it('is dropped when it falls behind, watches again over SSH and converges', async () => {
    const { client } = await connect(harnessTarget(h, h.root));
    const { w, states } = watch(client);
    await eventually(() => w.state().state === 'live', 'live');
    const dropped = sim.stats().shipped!.watchEventsDropped;
    sim.churn.step(600);
    await eventually(() => w.resyncs() >= 1 && divergence(w, sim).length === 0, 'a re-sync that matches the kubelet', 20_000);
    expect(sim.stats().shipped!.watchEventsDropped).toBeGreaterThan(dropped);
    expect(states.some((s) => s.state === 'catchingUp' && s.cause.code === 'WATCH_DROPPED')).toBe(true);
  }, 30_000);
});
