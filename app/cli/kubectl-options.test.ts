// kubectl's options on `pods`, `export` and `get` as a user runs them: bin/nodescope.js against the simulated
// kubelet on a UNIX socket, holding pods made for each case.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PodTree } from '../pod/pod-tree';
import { startSimulatedKubelet, type SimulatedKubelet } from '../sim/kubelet-server';
import { EXIT } from './exit-codes';
import { nodescope } from './testing/run-nodescope';

let dir: string;
let sim: SimulatedKubelet;
let source: string;

// Between 10 and 180 minutes, kubectl prints whole minutes: a slow run still reads "30m".
const HALF_AN_HOUR_AGO = () => new Date(Date.now() - 30 * 60_000).toISOString();

function pod(uid: string, namespace: string, name: string, labels: Record<string, string>, container: PodTree): PodTree {
  return {
    metadata: { uid, namespace, name, labels, creationTimestamp: '2026-01-01T00:00:00Z' },
    spec: { nodeName: 'w1', containers: [{ name: 'app', image: 'app:1' }] },
    status: { phase: 'Running', podIP: `10.0.0.${uid.length}`, podIPs: [{ ip: `10.0.0.${uid.length}` }], containerStatuses: [container] },
  };
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'nodescope-kubectl-options-'));
  sim = await startSimulatedKubelet({ socketPath: join(dir, 'pods.sock'), pods: 0, seed: 3 });
  source = `unix:${join(dir, 'pods.sock')}`;
  const running = { name: 'app', ready: true, restartCount: 0, state: { running: { startedAt: '2026-01-01T00:00:00Z' } } };
  const crashing = {
    name: 'app',
    ready: false,
    restartCount: 250,
    state: { waiting: { reason: 'CrashLoopBackOff' } },
    lastState: { terminated: { exitCode: 1, reason: 'Error', finishedAt: HALF_AN_HOUR_AGO() } },
  };
  sim.store.apply({ op: 'add', pod: pod('11111111-0000-0000-0000-000000000001', 'shop', 'web', { app: 'web' }, running) });
  sim.store.apply({ op: 'add', pod: pod('11111111-0000-0000-0000-000000000002', 'staging', 'web', { app: 'web' }, crashing) });
  sim.store.apply({ op: 'add', pod: pod('11111111-0000-0000-0000-000000000003', 'kube-system', 'dns', { app: 'dns' }, running) });
});
afterAll(async () => {
  await sim?.stop();
  await rm(dir, { recursive: true, force: true });
});

const lines = (text: string) => text.trimEnd().split('\n');
const cells = (line: string) => line.split(/\s{3,}/);

describe('nodescope pods like kubectl get pods', () => {
  it('computes STATUS as kubectl does: CrashLoopBackOff for a 0/1 pod with 250 restarts', async () => {
    const r = await nodescope(['pods', source]);
    expect(r.code, r.stderr).toBe(EXIT.ok);
    expect(lines(r.stdout).map(cells)).toEqual([
      ['NAMESPACE', 'NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE'],
      ['kube-system', 'dns', '1/1', 'Running', '0', expect.any(String)],
      ['shop', 'web', '1/1', 'Running', '0', expect.any(String)],
      ['staging', 'web', '0/1', 'CrashLoopBackOff', '250 (30m ago)', expect.any(String)],
    ]);
  });

  it('-n drops the NAMESPACE column; -o wide adds IP and NODE', async () => {
    const r = await nodescope(['pods', source, '-n', 'shop', '-o', 'wide']);
    expect(r.code, r.stderr).toBe(EXIT.ok);
    expect(lines(r.stdout).map(cells)).toEqual([
      ['NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE', 'IP', 'NODE', 'NOMINATED NODE', 'READINESS GATES'],
      ['web', '1/1', 'Running', '0', expect.any(String), '10.0.0.36', 'w1', '<none>', '<none>'],
    ]);
  });

  it('selects with -l and --field-selector in every output format, export too', async () => {
    const nd = await nodescope(['pods', source, '-l', 'app=web', '--field-selector', 'metadata.namespace!=shop', '-o', 'ndjson']);
    expect(nd.code, nd.stderr).toBe(EXIT.ok);
    expect(lines(nd.stdout).map((l) => JSON.parse(l).metadata.namespace)).toEqual(['staging']);
    const list = await nodescope(['export', source, '-l', 'app in (web)', '-o', 'json']);
    expect(list.code, list.stderr).toBe(EXIT.ok);
    expect(JSON.parse(list.stdout).items.map((p: PodTree) => (p.metadata as { namespace: string }).namespace)).toEqual(['shop', 'staging']);
    const yaml = await nodescope(['pods', source, '-l', '!app', '-o', 'yaml']);
    expect(yaml.stdout).toContain('items: []');
  });

  it('sorts with --sort-by and prints -o custom-columns', async () => {
    const r = await nodescope(['pods', source, '--sort-by', '{.status.containerStatuses[0].restartCount}', '-o', 'custom-columns=NS:.metadata.namespace,RESTARTS:.status.containerStatuses[0].restartCount']);
    expect(r.code, r.stderr).toBe(EXIT.ok);
    expect(lines(r.stdout).map(cells)).toEqual([['NS', 'RESTARTS'], ['kube-system', '0'], ['shop', '0'], ['staging', '250']]);
  });

  it("says kubectl's No resources found when nothing matches", async () => {
    const r = await nodescope(['pods', source, '-n', 'nowhere']);
    expect(r.code).toBe(EXIT.ok);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('No resources found in nowhere namespace.\n');
  });
});

describe('nodescope get by name', () => {
  it('finds a pod by NAMESPACE/NAME, by a name only one namespace has, and by UID', async () => {
    const byRef = await nodescope(['get', source, 'staging/web']);
    expect(byRef.code, byRef.stderr).toBe(EXIT.ok);
    expect(JSON.parse(byRef.stdout).metadata.uid).toBe('11111111-0000-0000-0000-000000000002');
    const byName = await nodescope(['get', source, 'dns', '-o', 'table']);
    expect(lines(byName.stdout)[1]).toMatch(/^kube-system\s+dns\s+1\/1\s+Running/);
    const byN = await nodescope(['get', source, 'web', '-n', 'shop', '-o', 'custom-columns=UID:.metadata.uid']);
    expect(lines(byN.stdout)[1]).toBe('11111111-0000-0000-0000-000000000001');
    const byUid = await nodescope(['get', source, '11111111-0000-0000-0000-000000000003']);
    expect(JSON.parse(byUid.stdout).metadata.name).toBe('dns');
  });

  it('asks for NAMESPACE/NAME when several namespaces have the name (exit 2)', async () => {
    const r = await nodescope(['get', source, 'web']);
    expect(r.code).toBe(EXIT.usage);
    expect(r.stderr).toContain('2 pods are named web, in namespaces shop, staging: give NAMESPACE/NAME, e.g. shop/web');
  });

  it('says no pod has that UID or name', async () => {
    const r = await nodescope(['get', source, 'nothing']);
    expect(r.code).toBe(EXIT.api);
    expect(r.stderr).toContain('no pod with UID nothing or name nothing');
  });
});

describe('a bad command line', () => {
  it.each([
    [['pods', 'SRC', '-l', 'a b'], /^nodescope pods: bad label selector 'a b'/],
    [['pods', 'SRC', '--no-such-option'], /^nodescope pods: Unknown option '--no-such-option'/],
    [['get', 'SRC', 'a', 'b'], /^nodescope get: give exactly one pod after the source/],
    [['export', 'SRC', '--field-selector', 'spec.hostIP=x'], /^nodescope export: --field-selector: pods cannot be selected by 'spec.hostIP'/],
    [['pods', 'SRC', '-o', 'custom-columns=NAME'], /^nodescope pods: bad -o custom-columns column 'NAME'/],
    [['decode', 'a.pb', 'b.pb'], /^nodescope decode: one input at a time/],
    [['ui', '--no-such-option'], /^nodescope ui: Unknown option '--no-such-option'/],
  ])('%j: the problem, then where the usage is: two lines', async (args, problem) => {
    const r = await nodescope(args.map((a) => (a === 'SRC' ? source : a)));
    expect(r.code).toBe(EXIT.usage);
    const [first, second, ...rest] = lines(r.stderr);
    expect(first).toMatch(problem);
    expect(second).toBe(`Run 'nodescope ${args[0]} --help' for usage.`);
    expect(rest).toEqual([]);
  });

  it('refuses --local with two more sources for diff, saying how to give them', async () => {
    const r = await nodescope(['diff', '--local', join(dir, 'pods.sock'), 'a.json', 'b.json']);
    expect(r.code).toBe(EXIT.usage);
    expect(r.stderr).toContain('with --local PATH (one side), give one other source');
  });

  it('points an ssh -l USER habit at --login, now that -l is the label selector', async () => {
    const r = await nodescope(['watch', source, '-l', 'root']);
    expect(r.code).toBe(EXIT.usage);
    expect(lines(r.stderr)[0]).toBe("nodescope watch: this command takes no -l: that is kubectl's label selector (pods, export); to log in as USER, give --login USER or USER@HOST");
  });
});

describe('--local on every node command', () => {
  it('diff takes --local PATH as its first side', async () => {
    const snapshot = join(dir, 'now.json');
    const exported = await nodescope(['export', '--local', join(dir, 'pods.sock'), '--file', snapshot]);
    expect(exported.code, exported.stderr).toBe(EXIT.ok);
    const same = await nodescope(['diff', '--local', join(dir, 'pods.sock'), snapshot, '-o', 'json']);
    expect(same.code, same.stderr).toBe(EXIT.ok);
    expect(JSON.parse(same.stdout).left.source).toBe(`unix:${join(dir, 'pods.sock')}`);
  });
});
