/**
 * The kubelet client through our SSH path (HTTP/2 straight on an ssh2 streamlocal channel) against the same
 * client straight on the socket and through OpenSSH's own `ssh -N -L` forwarding, on loopback with the
 * test harness's sshd and the simulated kubelet. Targets: our path within 1.15x of direct, >= 20x faster
 * than `ssh -N -L`, connect-to-first-list (110 pods) under 150 ms. `ssh -N -L` is measured as operators
 * use it, with a stock gRPC client's window (64 KiB, HTTP/2's default, as grpc-js, grpcurl and most
 * clients have), which is where sshd's Nagle stall bites (spike report §4). For transparency the best OpenSSH's
 * own forward can do is printed too: a session running (so sshd turns Nagle off) and our tuned client.
 * The OpenSSH transport (the user's ssh as Nodescope's transport, through a ControlMaster) is a side of
 * its own, against the built-in one (targets: 1.1x on lists and watch, 1.25x on GetPod), with its
 * connect-to-first-list from a fresh master (the login included) and from one an earlier run left.
 *
 * On 2 shared vCPUs a single call varies by +-30% (mostly the garbage collection of the previous call's
 * pods), so every side is sampled many times, cycling through every order of the sides, and the
 * comparison is of medians.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { HARNESS_HOST_ALIASES, startSshHarness, type SshHarness } from '../e2e/harness/ssh-harness';
import { createKubeletClient, type KubeletClient, type KubeletClientOptions } from '../app/kubelet/kubelet-client';
import { openKubeletTransport, type KubeletTransport } from '../app/ssh/kubelet-transport';
import { harnessTarget, scriptedPrompter } from '../app/ssh/testing/ssh-test-kit';
import { controlDir, controlPathFor } from '../app/ssh/openssh/control-dir';
import { findOpenSsh, runSsh, sshArgv, type OpenSshDestination } from '../app/ssh/openssh/openssh-client';
import { createOpenSshSession } from '../app/ssh/openssh/openssh-session';
import { figure } from './figures';
import { kubeletProcess } from './kubelet-spawn';

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

interface Side {
  name: string;
  /** Clients for the 110-pod and the 1,000-pod kubelet. */
  small: KubeletClient;
  large: KubeletClient;
}

/** Milliseconds for one call. */
async function timed(fn: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

/** Watch replay of every pod (ADDED each, then INITIAL_SYNC_COMPLETE): events per second. */
async function watchRate(client: KubeletClient, pods: number): Promise<number> {
  const t = performance.now();
  const stream = await client.watchPods();
  let n = 0;
  for await (const message of stream) {
    if (message.type === 'INITIAL_SYNC_COMPLETE') break;
    n++;
  }
  stream.cancel();
  const ms = performance.now() - t;
  if (n !== pods) throw new Error(`watch replay had ${n} events, expected ${pods}`);
  return (n * 1000) / ms;
}

/** Every order of `items` (3 sides: 6 orders). */
function permutations<T>(items: T[]): T[][] {
  if (items.length <= 1) return [items];
  return items.flatMap((first, i) => permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [first, ...rest]));
}

/**
 * Runs `measure` on every side `rounds` times, each round in the next of all possible orders, so over
 * every n! rounds each side runs after each other one equally often and carries the same share of the
 * previous call's garbage. The samples by side name.
 */
async function inEveryOrder(sides: Side[], rounds: number, measure: (s: Side) => Promise<number>): Promise<Record<string, number[]>> {
  const samples: Record<string, number[]> = Object.fromEntries(sides.map((s) => [s.name, []]));
  const orders = permutations(sides);
  for (const s of sides) await measure(s); // warm-up
  for (let r = 0; r < rounds; r++) {
    for (const s of orders[r % orders.length]!) samples[s.name]!.push(await measure(s));
  }
  return samples;
}

/**
 * `ssh -L` to the node's socket. `session`: run a command that waits on stdin instead of `-N`, which makes
 * sshd turn Nagle off (spike report §4); it ends when ssh does, as its stdin closes.
 */
async function openSshForward(h: SshHarness, dir: string, remote: string, name: string, session: boolean): Promise<{ socket: string; proc: ChildProcess }> {
  const socket = join(dir, `${name}.sock`);
  const forward = ['-F', h.sshConfig, '-o', 'ExitOnForwardFailure=yes', '-L', `${socket}:${remote}`, HARNESS_HOST_ALIASES.target];
  const proc = spawn('ssh', session ? [...forward, 'cat >/dev/null'] : ['-N', ...forward], { stdio: [session ? 'pipe' : 'ignore', 'ignore', 'ignore'] });
  const deadline = Date.now() + 10_000;
  while (!existsSync(socket)) {
    if (proc.exitCode !== null || Date.now() > deadline) throw new Error(`ssh -N -L did not open ${socket}`);
    await new Promise((r) => setTimeout(r, 10));
  }
  return { socket, proc };
}

export async function sshPathBench(): Promise<boolean> {
  const dir = await mkdtemp(join(tmpdir(), 'nodescope-bench-'));
  const smallSocket = () => join(dirname(h.socketPath), 'small.sock');
  let h!: SshHarness;
  h = await startSshHarness({
    startKubelet: async (socketPath) => {
      const [large, small] = await Promise.all([kubeletProcess(socketPath, 1000, 1), kubeletProcess(join(dirname(socketPath), 'small.sock'), 110, 2)]);
      return { stop: async () => void (await Promise.all([large.stop(), small.stop()])) };
    },
  });
  const transports: KubeletTransport[] = [];
  const forwards: ChildProcess[] = [];
  const clients: KubeletClient[] = [];
  const client = (target: KubeletClientOptions['target'], socketPath: string, transport?: KubeletTransport, stock = false) => {
    const c = createKubeletClient({
      target,
      socketPath,
      api: 'shipped',
      ...(transport ? { transportError: () => transport.lastError() } : {}),
      // A stock client's window (HTTP/2's default, 64 KiB, as grpc-js has it).
      ...(stock ? { window: 65_535 } : {}),
    });
    clients.push(c);
    return c;
  };
  try {
    const ours = async (socketPath: string) => {
      const t = await openKubeletTransport(harnessTarget(h, h.root), { socketPath, prompter: scriptedPrompter() });
      transports.push(t);
      return client(t.open, socketPath, t);
    };
    const viaSsh = async (socketPath: string, name: string, stock: boolean) => {
      const f = await openSshForward(h, dir, socketPath, name, !stock);
      forwards.push(f.proc);
      return client(f.socket, socketPath, undefined, stock);
    };
    // The user's own ssh as the transport (a ControlMaster of ours; the Pods API socket forwarded by it).
    const openSshTarget: OpenSshDestination = { destination: HARNESS_HOST_ALIASES.target, configFile: h.sshConfig };
    const viaOpenSsh = async (socketPath: string) => {
      const { session, label } = await createOpenSshSession(openSshTarget, { prompter: scriptedPrompter() });
      const t = await openKubeletTransport(label, { socketPath, prompter: scriptedPrompter(), session });
      transports.push(t);
      return client(t.open, socketPath, t);
    };
    const sides: Side[] = [
      { name: 'ours', small: await ours(smallSocket()), large: await ours(h.socketPath) },
      { name: 'openssh', small: await viaOpenSsh(smallSocket()), large: await viaOpenSsh(h.socketPath) },
      { name: 'direct', small: client(smallSocket(), smallSocket()), large: client(h.socketPath, h.socketPath) },
      { name: 'ssh -L', small: await viaSsh(smallSocket(), 'small', true), large: await viaSsh(h.socketPath, 'large', true) },
      { name: 'OpenSSH best', small: await viaSsh(smallSocket(), 'small-tuned', false), large: await viaSsh(h.socketPath, 'large-tuned', false) },
    ];

    console.log('\nSSH path: kubelet client over loopback sshd (simulated kubelet), medians over every order of the sides');
    let ok = true;
    /**
     * The targets hold for the client's calls as the product makes them (pods decoded, as `pods`,
     * `watch` and the UI use them): within 1.15x of direct, and >= 20x faster than ssh -N -L. Printed for
     * information: a single GetPod (its ~1 ms round trip is all hops), and the 1,000-pod list as bytes only
     * (the unmasked export path), where the SSH pipe itself shows: sshd encrypting and the client decrypting
     * ~3 MiB, which OpenSSH's own client pays as well. The stock ssh -N -L side takes up to seconds a call, so
     * it runs in its own pass rather than between the fast sides.
     */
    const fast = sides.filter((s) => s.name !== 'ssh -L');
    const stock = sides.filter((s) => s.name === 'ssh -L');
    const line = async (what: string, unit: string, rounds: number, measure: (s: Side) => Promise<number>, faster: 'lower' | 'higher', targets = true) => {
      const samples = { ...(await inEveryOrder(fast, rounds, measure)), ...(await inEveryOrder(stock, 5, measure)) };
      const [ours, direct, ssh, tuned, openssh] = [samples.ours!, samples.direct!, samples['ssh -L']!, samples['OpenSSH best']!, samples.openssh!];
      const lower = faster === 'lower';
      // The OpenSSH transport against the built-in one (the issue: within 1.1x on lists and watch, 1.25x on GetPod) and the socket.
      const within = what.startsWith('GetPod') ? 1.25 : 1.1;
      ok = figure(`${what}: OpenSSH transport vs built-in`, median(openssh), unit, { baseline: median(ours), ...(targets || what.startsWith('GetPod') ? { target: lower ? { maxRatio: within } : { minRatio: 1 / within } } : {}) }) && ok;
      figure(`${what}: OpenSSH transport vs direct`, median(openssh), unit, { baseline: median(direct) });
      // Times: ours at most 1.15x direct's, ssh -N -L at least 20x ours. Rates: the same, inverted.
      let met = figure(`${what}: ours`, median(ours), unit, { baseline: median(direct), ...(targets ? { target: lower ? { maxRatio: 1.15 } : { minRatio: 1 / 1.15 } } : {}) });
      met = figure(`${what}: ssh -N -L`, median(ssh), unit, { baseline: median(ours), ...(targets ? { target: lower ? { minRatio: 20 } : { maxRatio: 1 / 20 } } : {}) }) && met;
      figure(`${what}: OpenSSH forward at its best`, median(tuned), unit, { baseline: median(direct) });
      ok &&= met;
    };
    const uid = (await sides[1]!.small.listPods()).pods[0]!.uid;
    await line('GetPod round trip (one pod)', 'ms', 60, (s) => timed(() => s.small.getPod(uid)), 'lower', false);
    await line('ListPods 110 pods', 'ms', 60, (s) => timed(() => s.small.listPods()), 'lower');
    await line('ListPods 1,000 pods', 'ms', 42, (s) => timed(() => s.large.listPods()), 'lower');
    await line('WatchPods replay, 1,000 pods', 'events/s', 42, (s) => watchRate(s.large, 1000), 'higher');
    await line('ListPods 1,000 pods, bytes only', 'ms', 42, (s) => timed(() => s.large.listPodBytes()), 'lower', false);

    const connects: number[] = [];
    for (let i = 0; i < 9; i++) {
      connects.push(
        await timed(async () => {
          const t = await openKubeletTransport(harnessTarget(h, h.root), { socketPath: smallSocket(), prompter: scriptedPrompter() });
          const c = createKubeletClient({ target: t.open, socketPath: smallSocket(), api: 'shipped', transportError: () => t.lastError() });
          await c.listPods();
          c.close();
          await t.close();
        }),
      );
    }
    // SSH dial + auth + channel + ListPods.
    ok = figure('connect to first list, 110 pods', median(connects), 'ms', { target: { max: 150 } }) && ok;

    // The same over OpenSSH: with a fresh master (its login included), and with the master of an earlier run.
    const openSsh = await findOpenSsh();
    const masterPath = controlPathFor(controlDir(), sshArgv(openSshTarget, []));
    const openSshConnect = (fresh: boolean) =>
      timed(async () => {
        if (fresh) await runSsh(openSsh, sshArgv(openSshTarget, ['-S', masterPath, '-O', 'exit']));
        const { session, label } = await createOpenSshSession(openSshTarget, { prompter: scriptedPrompter() });
        const t = await openKubeletTransport(label, { socketPath: smallSocket(), prompter: scriptedPrompter(), session });
        const c = createKubeletClient({ target: t.open, socketPath: smallSocket(), api: 'shipped', transportError: () => t.lastError() });
        await c.listPods();
        c.close();
        await t.close();
      });
    const freshConnects: number[] = [];
    const warmConnects: number[] = [];
    for (let i = 0; i < 9; i++) {
      freshConnects.push(await openSshConnect(true));
      warmConnects.push(await openSshConnect(false));
    }
    figure('connect to first list over OpenSSH, fresh master', median(freshConnects), 'ms', { baseline: median(connects) });
    figure('connect to first list over OpenSSH, warm master', median(warmConnects), 'ms', { baseline: median(connects) });
    return ok;
  } finally {
    for (const c of clients) c.close();
    await Promise.all(transports.map((t) => t.close()));
    for (const p of forwards) p.kill();
    await h.stop();
    await rm(dir, { recursive: true, force: true });
  }
}
