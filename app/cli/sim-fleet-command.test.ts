import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { workloadKey } from '../fleet/workload-identity';
import type { PodObject, PodTree } from '../pod/pod-tree';
import { CANARY_IMAGE, firstWorkloadOf, HOTFIX_IMAGE } from '../sim/fleet-drift';
import { PodStore } from '../sim/pod-store';
import { podsClient } from '../sim/pods-test-client';
import { EXIT } from './exit-codes';
import { nodescope } from './testing/run-nodescope';

const bin = resolve(__dirname, '..', '..', 'bin', 'nodescope.js');
const dir = mkdtempSync(join(tmpdir(), 'nodescope-sim-fleet-'));
const children: ChildProcessWithoutNullStreams[] = [];
const NODES = Array.from({ length: 20 }, (_, i) => `sim-node-${String(i + 1).padStart(2, '0')}`);
const source = (node: string) => `unix:${dir}/${node}.sock`;

afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

/** Starts `nodescope sim` with `args` and resolves once it says it is serving. */
async function startSim(args: string[]) {
  const child = spawn(process.execPath, [bin, 'sim', ...args]);
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  await new Promise<void>((ready, failed) => {
    child.stdout.on('data', () => stdout.includes('Stop with Ctrl-C.') && ready());
    void exited.then((code) => failed(new Error(`nodescope sim exited with ${code}: ${stderr}`)));
  });
  return { child, exited, output: () => ({ stdout, stderr }) };
}

interface MatrixJson {
  drifted: number;
  rows: { workload: { namespace: string; kind: string; name: string }; drift: { kind: string; container?: string; values: Record<string, string> }[] }[];
}

/** The sources whose value is not the most common one: the nodes a drift entry singles out. */
function outliers(values: Record<string, string>): string[] {
  const counts = new Map<string, number>();
  for (const v of Object.values(values)) counts.set(v, (counts.get(v) ?? 0) + 1);
  const usual = [...counts.entries()].sort((a, b) => b[1] - a[1])[0]![0];
  return Object.keys(values).filter((s) => values[s] !== usual);
}

describe('nodescope sim --nodes', () => {
  it('serves every node on its own socket; compare over unix:DIR/*.sock finds exactly the known drift; SIGTERM removes every socket', async () => {
    const sim = await startSim(['--nodes', '20', '--socket-dir', dir, '--pods', '40', '--seed', '3']);
    const out = sim.output().stdout;
    expect(out).toContain('serving 20 nodes of 40 pods each (seed 3), sim-node-01 to sim-node-20');
    expect(out).toContain(`nodescope compare 'unix:${dir}/*.sock'`);
    expect(readdirSync(dir).sort()).toEqual(NODES.map((n) => `${n}.sock`));
    expect(statSync(join(dir, 'sim-node-07.sock')).mode & 0o777).toBe(0o600);

    // Every socket is its own node: the pods it lists are bound to it.
    const lists: PodTree[][] = [];
    for (const node of NODES) {
      const client = podsClient(join(dir, `${node}.sock`), 'shipped');
      try {
        const pods = await client.list();
        lists.push(pods);
        expect(new Set(pods.map((p) => (p.spec as PodObject).nodeName).filter(Boolean)), node).toEqual(new Set([node]));
      } finally {
        client.close();
      }
    }
    const first = new PodStore(lists[0]!);
    const deployment = firstWorkloadOf(first, 'Deployment')!;
    const daemonSet = firstWorkloadOf(first, 'DaemonSet')!;
    expect(out).toContain(`${workloadKey(deployment)}: image ${HOTFIX_IMAGE} on sim-node-02`);
    expect(out).toContain(`${workloadKey(daemonSet)}: image ${CANARY_IMAGE} on sim-node-10, sim-node-20`);

    // One quoted argument names several nodes: pods reads them all, sorted.
    const pods = await nodescope(['pods', `unix:${dir}/sim-node-0[1-3].sock`, '-o', 'ndjson']);
    expect(pods.code, pods.stderr).toBe(EXIT.ok);
    const sources = pods.stdout.trim().split('\n').map((l) => (JSON.parse(l) as { source: string }).source);
    expect([...new Set(sources)]).toEqual(NODES.slice(0, 3).map(source));
    expect(sources).toHaveLength(lists.slice(0, 3).reduce((n, l) => n + l.length, 0));

    const json = await nodescope(['compare', `unix:${dir}/*.sock`, '-o', 'json']);
    expect(json.code, json.stderr).toBe(EXIT.drift);
    const m = JSON.parse(json.stdout) as MatrixJson;
    const drift = m.rows.flatMap((row) => row.drift.map((d) => ({ workload: workloadKey(row.workload), kind: d.kind, nodes: outliers(d.values) })));
    expect(drift).toEqual(
      expect.arrayContaining([
        { workload: workloadKey(deployment), kind: 'image', nodes: [source('sim-node-02')] },
        { workload: workloadKey(deployment), kind: 'env', nodes: [source('sim-node-05')] },
        { workload: workloadKey(daemonSet), kind: 'missing', nodes: [source('sim-node-03')] },
        { workload: workloadKey(daemonSet), kind: 'image', nodes: [source('sim-node-10'), source('sim-node-20')] },
      ]),
    );
    expect(drift).toHaveLength(4);
    expect(m.drifted).toBe(2);

    const csv = await nodescope(['compare', `unix:${dir}/*.sock`, '-o', 'csv']);
    expect(csv.code, csv.stderr).toBe(EXIT.drift);
    expect(csv.stdout).toContain(`,${daemonSet.name},${source('sim-node-03')},absent,0,0,,0,missing,\r\n`);
    const driftLines = csv.stdout.split('\r\n').filter((l) => l.includes(`,${daemonSet.name},${source('sim-node-10')},`));
    expect(driftLines).toHaveLength(1);
    // Node 10 runs the DaemonSet with another image: its row names that drift and its own value, not node 3's.
    expect(driftLines[0]).toMatch(/,present,[^,]*,[^,]*,[^,]*,[^,]*,image:[^, ]+,"\{""image:[^"]+"":""[^"]+:canary""\}"$/);

    sim.child.kill('SIGTERM');
    expect(await sim.exited).toBe(0);
    expect(sim.output().stdout).toContain('stopped on SIGTERM');
    expect(readdirSync(dir)).toEqual([]);
  });

  it('stops while still starting nodes on SIGTERM, with no socket left behind', async () => {
    const slow = mkdtempSync(join(tmpdir(), 'nodescope-sim-fleet-'));
    try {
      const child = spawn(process.execPath, [bin, 'sim', '--nodes', '1000', '--socket-dir', slow, '--pods', '110']);
      children.push(child);
      let stdout = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
      await vi.waitFor(() => expect(readdirSync(slow).length).toBeGreaterThan(0), { timeout: 60_000, interval: 50 });
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(stdout).toMatch(/stopped on SIGTERM while starting \(stopped after \d+ of 1000 nodes had started\); sockets removed/);
      expect(readdirSync(slow)).toEqual([]);
    } finally {
      rmSync(slow, { recursive: true, force: true });
    }
  });

  it('refuses --nodes without --socket-dir, a single node\'s options, and a folder that is not there, saying what to do', async () => {
    const noDir = await nodescope(['sim', '--nodes', '3']);
    expect(noDir.code).toBe(EXIT.usage);
    expect(noDir.stderr).toContain('--nodes N needs --socket-dir DIR');
    const clash = await nodescope(['sim', '--nodes', '3', '--socket-dir', dir, '--socket', join(dir, 'x.sock')]);
    expect(clash.code).toBe(EXIT.usage);
    expect(clash.stderr).toContain('--socket is for one node; leave it out with --nodes');
    const missing = await nodescope(['sim', '--nodes', '3', '--socket-dir', join(dir, 'absent')]);
    expect(missing.code).toBe(EXIT.usage);
    expect(missing.stderr).toContain(`--socket-dir ${join(dir, 'absent')} does not exist; create it first`);
  });
});
