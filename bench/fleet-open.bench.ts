/**
 * Opening many nodes in the app: 100 simulated nodes of 110 pods each (11,000 pods), each with its own
 * OpenSSH sshd (the fleet harness on loopback addresses), added in one step (nodes.addMany) to a fresh app
 * core, timed from the request until every node is live with all its pods listed. Through one bastion (one
 * login there, its channels carrying every node's SSH) with each transport, the user's OpenSSH and the
 * built-in client, against the baseline issue 26 sets: the operator's own `ssh` fanned out as Ansible does
 * (a ControlMaster on the bastion, ProxyJump through it, the app's open concurrency; bench/ssh-fan-out.ts),
 * in the same run, the sides in rotating order. Target: Nodescope within 1.0x of the fan-out. Directly
 * (no bastion) for information. Every sshd here shares this machine's two cores, as no real fleet's do: the
 * wall times carry 100 logins' key exchanges on both sides; the app's own CPU per node, against one node
 * opened alone, says whether the app itself scales with the node count.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFleetHarness, type FleetHarness } from '../e2e/harness/fleet-harness';
import { handleRequest, type NodeInfo, type SshTransportChoice } from '../app/contract';
import { createHost } from '../app/host/host';
import { DEFAULT_OPEN_CONCURRENCY } from '../app/util/concurrency-limit';
import { figure } from './figures';
import { fmt } from './measure';
import { privateMasters } from './private-masters';
import { sshFanOut } from './ssh-fan-out';

const NODES = 100;
const PODS = 110;
/** Single-node openings, for a stable baseline (the median is used). */
const SINGLE_RUNS = 5;
/** Openings of each side through the bastion, each side once in every position of the order. */
const ROUNDS = 3;

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Wall time, and this process's CPU time (the app's own share: the sshds are other processes). */
interface Opening {
  ms: number;
  cpuMs: number;
  /** Logins the bastion accepted meanwhile. */
  bastionLogins: number;
}

/** Adds `hosts` to a fresh app core at once and waits until every one is live with all its pods. */
async function openAll(f: FleetHarness, hosts: string[], ssh: SshTransportChoice): Promise<Opening> {
  const stateDir = await mkdtemp(join(tmpdir(), 'ns-bench-fleet-'));
  const inspector = await createHost({ mode: 'browser', stateDir, demo: false, sshConfigFile: f.sshConfig });
  const listed = new Set<string>();
  let failure: string | null = null;
  let done!: () => void;
  const allListed = new Promise<void>((resolve) => (done = resolve));
  // Live, and its first list of all its pods out: its state comes once, its pods in their own batches.
  const live = new Set<string>();
  const full = new Set<string>();
  inspector.subscribe((event) => {
    if (event.name === 'podDeltas' && event.payload.reset && event.payload.upserts.length === PODS) full.add(event.payload.nodeId);
    else if (event.name === 'nodeState') {
      const node = event.payload;
      if (node.state.phase === 'live') live.add(node.id);
      if (node.state.phase === 'error') failure ??= `${node.label}: ${node.state.cause}`;
    } else return;
    for (const id of full) if (live.has(id)) listed.add(id);
    if (listed.size === hosts.length || failure) done();
  });
  const loginsBefore = f.bastion.logins();
  try {
    const cpu = process.cpuUsage();
    const t = performance.now();
    const added = await handleRequest(inspector.handlers, 'nodes.addMany', {
      nodes: hosts.map((host) => ({ host, ssh, socketPath: f.hosts.find((h) => host.replace(/^direct-/, '') === h.name)!.socketPath })),
    });
    if (!added.ok) throw new Error(added.error.message);
    await allListed;
    const ms = performance.now() - t;
    const used = process.cpuUsage(cpu);
    if (failure) throw new Error(`a node failed to open: ${failure}`);
    if ((added.value as NodeInfo[]).length !== hosts.length) throw new Error('not every node was added');
    return { ms, cpuMs: (used.user + used.system) / 1000, bastionLogins: f.bastion.logins() - loginsBefore };
  } finally {
    await inspector.close();
    await rm(stateDir, { recursive: true, force: true });
  }
}

export async function fleetOpenBench(): Promise<boolean> {
  console.log(`\nfleet open: ${NODES} nodes x ${PODS} pods, each its own sshd, added at once in the app core`);
  // Every opening logs in afresh, as on a new workstation: the masters the OpenSSH transport leaves are ended.
  const masters = await privateMasters();
  const savedRuntimeDir = process.env.XDG_RUNTIME_DIR;
  process.env.XDG_RUNTIME_DIR = masters.runtimeDir;
  const f = await startFleetHarness({ isolation: 'loopback', hosts: Array.from({ length: NODES }, (_, i) => ({ name: `node-${i + 1}`, kubelet: { pods: PODS } })) });
  try {
    const names = f.hosts.map((h) => h.name);
    const open = async (hosts: string[], ssh: SshTransportChoice) => {
      try {
        return await openAll(f, hosts, ssh);
      } finally {
        await masters.endAll();
      }
    };
    // Warm-up: the first dial pays for loading each transport's code and ssh2's crypto.
    for (const ssh of ['openssh', 'builtin'] as const) await open([names[0]!], ssh);
    // One node alone with each transport: the baseline of the app's CPU per node.
    const single: Record<SshTransportChoice, Opening[]> = { openssh: [], builtin: [] };
    for (let i = 0; i < SINGLE_RUNS; i++) for (const ssh of ['openssh', 'builtin'] as const) single[ssh].push(await open([names[i]!], ssh));

    const fanOutNodes = f.hosts.map((h) => ({ alias: h.name, socketPath: h.socketPath }));
    const sides: Record<string, () => Promise<Opening>> = {
      'ssh fan-out': async () => {
        const before = f.bastion.logins();
        const ms = await sshFanOut(f.sshConfig, 'bastion', fanOutNodes, DEFAULT_OPEN_CONCURRENCY);
        return { ms, cpuMs: 0, bastionLogins: f.bastion.logins() - before };
      },
      openssh: () => open(names, 'openssh'),
      builtin: () => open(names, 'builtin'),
    };
    const runs: Record<string, Opening[]> = Object.fromEntries(Object.keys(sides).map((k) => [k, []]));
    const order = Object.keys(sides);
    for (let r = 0; r < ROUNDS; r++) {
      for (const name of [...order.slice(r % order.length), ...order.slice(0, r % order.length)]) runs[name]!.push(await sides[name]!());
    }
    for (const [name, openings] of Object.entries(runs)) {
      const logins = new Set(openings.map((o) => o.bastionLogins));
      if (logins.size !== 1 || !logins.has(1)) throw new Error(`${NODES} nodes behind the bastion (${name}) made ${[...logins].join(', ')} logins there, not 1`);
    }
    const fanOut = median(runs['ssh fan-out']!.map((o) => o.ms));
    const times = (side: string) => runs[side]!.map((o) => fmt(o.ms)).join(', ');
    let ok = true;
    for (const [ssh, label] of [['openssh', 'OpenSSH transport'], ['builtin', 'built-in transport']] as const) {
      const openings = runs[ssh]!;
      ok = figure(`open ${NODES} nodes via one bastion, ${label}`, median(openings.map((o) => o.ms)), 'ms', { baseline: fanOut, target: { maxRatio: 1 }, note: `vs the ssh fan-out; runs ${times(ssh)} ms` }) && ok;
      const oneCpu = median(single[ssh].map((o) => o.cpuMs));
      ok = figure(`app CPU per node, ${NODES} via the bastion, ${label}`, median(openings.map((o) => o.cpuMs)) / NODES, 'ms', { baseline: oneCpu, target: { maxRatio: 1.5 }, note: 'vs one node alone' }) && ok;
    }
    console.log(`  (ssh fan-out, ${DEFAULT_OPEN_CONCURRENCY} at once through one bastion master: ${times('ssh fan-out')} ms; one node alone over OpenSSH: ${single.openssh.map((o) => fmt(o.ms)).join(', ')} ms, built-in: ${single.builtin.map((o) => fmt(o.ms)).join(', ')} ms)`);
    for (const ssh of ['openssh', 'builtin'] as const) {
      const direct = await open(names.map((n) => `direct-${n}`), ssh);
      figure(`open ${NODES} nodes directly, ${ssh === 'openssh' ? 'OpenSSH' : 'built-in'} transport`, direct.ms, 'ms', { baseline: fanOut, note: 'vs the fan-out through the bastion' });
    }
    return ok;
  } finally {
    if (savedRuntimeDir === undefined) delete process.env.XDG_RUNTIME_DIR;
    else process.env.XDG_RUNTIME_DIR = savedRuntimeDir;
    await f.stop();
    await masters.remove();
  }
}
