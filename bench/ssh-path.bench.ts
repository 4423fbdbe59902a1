/**
 * The kubelet client through our SSH path (ssh2 streamlocal + private local socket) against the same
 * client straight on the socket and through OpenSSH's own `ssh -N -L` forwarding, on loopback with the
 * test harness's sshd and the simulated kubelet. Each round measures every side once, in turn, so
 * load from elsewhere hits all sides alike; medians are reported.
 * Targets: our path within 1.15x of direct, >= 20x faster than `ssh -N -L`, connect-to-first-list
 * (110 pods) under 150 ms.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { HARNESS_HOST_ALIASES, startSshHarness, type SshHarness } from '../e2e/harness/ssh-harness';
import { createKubeletClient, type KubeletClient } from '../app/kubelet/kubelet-client';
import { openKubeletTransport, type KubeletTransport } from '../app/ssh/kubelet-transport';
import { harnessTarget, scriptedPrompter } from '../app/ssh/testing/ssh-test-kit';
import { fmt, report } from './measure';

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

/** Runs `measure` on every side in turn, `rounds` times; the samples by side name, in round order. */
async function interleaved(sides: Side[], rounds: number, measure: (s: Side) => Promise<number>): Promise<Record<string, number[]>> {
  const samples: Record<string, number[]> = Object.fromEntries(sides.map((s) => [s.name, []]));
  for (const s of sides) await measure(s); // warm-up
  for (let r = 0; r < rounds; r++) for (const s of sides) samples[s.name]!.push(await measure(s));
  return samples;
}

/** Median of the per-round ratios a/b: a round's load hits both sides, so it cancels out. */
const ratio = (a: number[], b: number[]): number => median(a.map((x, i) => x / b[i]!));

const here = dirname(fileURLToPath(import.meta.url));

/** Starts bench/kubelet-process.ts and waits for it to serve. */
async function kubeletProcess(socketPath: string, pods: number, seed: number): Promise<{ stop(): Promise<void> }> {
  const proc = spawn(process.execPath, [resolve(here, '../bin/run-ts.js'), resolve(here, 'kubelet-process.ts'), socketPath, String(pods), String(seed)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((ready, fail) => {
    proc.stdout.on('data', (d: Buffer) => d.toString().includes('ready') && ready());
    proc.once('exit', (code) => fail(new Error(`simulated kubelet exited (${code}) before serving`)));
  });
  return {
    stop: () =>
      new Promise<void>((done) => {
        if (proc.exitCode !== null) return done();
        proc.once('exit', () => done());
        proc.kill('SIGTERM');
      }),
  };
}

async function openSshForward(h: SshHarness, dir: string, remote: string, name: string): Promise<{ socket: string; proc: ChildProcess }> {
  const socket = join(dir, `${name}.sock`);
  const proc = spawn('ssh', ['-F', h.sshConfig, '-N', '-o', 'ExitOnForwardFailure=yes', '-L', `${socket}:${remote}`, HARNESS_HOST_ALIASES.target], { stdio: 'ignore' });
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
  const client = (target: string, socketPath: string, transport?: KubeletTransport) => {
    const c = createKubeletClient({ target, socketPath, api: 'shipped', ...(transport ? { transportError: () => transport.lastError() } : {}) });
    clients.push(c);
    return c;
  };
  try {
    const ours = async (socketPath: string) => {
      const t = await openKubeletTransport(harnessTarget(h, h.root), { socketPath, prompter: scriptedPrompter() });
      transports.push(t);
      return client(t.target, socketPath, t);
    };
    const viaSsh = async (socketPath: string, name: string) => {
      const f = await openSshForward(h, dir, socketPath, name);
      forwards.push(f.proc);
      return client(f.socket, socketPath);
    };
    const sides: Side[] = [
      { name: 'ours', small: await ours(smallSocket()), large: await ours(h.socketPath) },
      { name: 'direct', small: client(smallSocket(), smallSocket()), large: client(h.socketPath, h.socketPath) },
      { name: 'ssh -L', small: await viaSsh(smallSocket(), 'small'), large: await viaSsh(h.socketPath, 'large') },
    ];

    console.log('\nSSH path: kubelet client over loopback sshd (simulated kubelet), medians of interleaved rounds');
    let ok = true;
    /**
     * Throughput lines carry the "within 1.15x of direct" target. The ">= 20x faster than ssh -L" target is
     * about sshd's 40 ms Nagle/delayed-ACK stall (spike report §4), which shows in round trips; a bulk
     * response fills whole segments and hides it, so for those the ssh -L ratio is printed without a target.
     */
    const line = (what: string, unit: string, samples: Record<string, number[]>, faster: 'lower' | 'higher', target: 'direct' | 'ssh') => {
      const [ours, direct, ssh] = [samples.ours!, samples.direct!, samples['ssh -L']!];
      const m = { ours: median(ours), direct: median(direct), 'ssh -L': median(ssh) };
      const vsDirect = faster === 'lower' ? ratio(ours, direct) : ratio(direct, ours);
      const vsSsh = faster === 'lower' ? ratio(ssh, ours) : ratio(ours, ssh);
      const met = target === 'direct' ? vsDirect <= 1.15 : vsSsh >= 20;
      ok &&= met;
      report(what, `ours ${fmt(m.ours!)} ${unit}, direct ${fmt(m.direct!)}, ssh -L ${fmt(m['ssh -L']!)}`);
      const directText = `ours vs direct ${vsDirect.toFixed(2)}x slower${target === 'direct' ? ' (target <= 1.15x)' : ''}`;
      const sshText = `vs ssh -L ${vsSsh.toFixed(1)}x faster${target === 'ssh' ? ' (target >= 20x)' : ''}`;
      report('', `${directText}, ${sshText}`, met);
    };
    const uid = (await sides[1]!.small.listPods()).pods[0]!.uid;
    line('GetPod round trip (one pod)', 'ms', await interleaved(sides, 25, (s) => timed(() => s.small.getPod(uid))), 'lower', 'ssh');
    line('ListPods 110 pods', 'ms', await interleaved(sides, 25, (s) => timed(() => s.small.listPods())), 'lower', 'direct');
    line('ListPods 1,000 pods', 'ms', await interleaved(sides, 11, (s) => timed(() => s.large.listPods())), 'lower', 'direct');
    line('WatchPods replay, 1,000 pods', 'events/s', await interleaved(sides, 7, (s) => watchRate(s.large, 1000)), 'higher', 'direct');

    const connects: number[] = [];
    for (let i = 0; i < 9; i++) {
      connects.push(
        await timed(async () => {
          const t = await openKubeletTransport(harnessTarget(h, h.root), { socketPath: smallSocket(), prompter: scriptedPrompter() });
          const c = createKubeletClient({ target: t.target, socketPath: smallSocket(), api: 'shipped', transportError: () => t.lastError() });
          await c.listPods();
          c.close();
          await t.close();
        }),
      );
    }
    const connect = median(connects);
    report('connect to first list, 110 pods', `${fmt(connect)} ms (SSH dial + auth + channel + ListPods; target < 150 ms)`, connect < 150);
    return ok && connect < 150;
  } finally {
    for (const c of clients) c.close();
    await Promise.all(transports.map((t) => t.close()));
    for (const p of forwards) p.kill();
    await h.stop();
    await rm(dir, { recursive: true, force: true });
  }
}
