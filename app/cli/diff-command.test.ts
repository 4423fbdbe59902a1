// `nodescope diff` as a user runs it: bin/nodescope.js against real sshd and the simulated kubelet, and
// against snapshot files and a recording the CLI wrote itself.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fastJsonPatch, { type Operation } from 'fast-json-patch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HARNESS_HOST_ALIASES as A, startSshHarness, type SshHarness } from '../../e2e/harness/ssh-harness';
import { podToKubectlJson } from '../pod/kubectl-json';
import type { PodObject, PodTree } from '../pod/pod-tree';
import { startSimulatedKubelet, type SimulatedKubelet } from '../sim/kubelet-server';
import { EXIT } from './exit-codes';
import { nodescope } from './testing/run-nodescope';

let h: SshHarness;
let sim: SimulatedKubelet;
let dir: string;
const node = () => [A.target, '-F', h.sshConfig, '--socket', h.socketPath];
const uidOf = (p: PodTree) => String((p.metadata as PodObject).uid);
// As the export prints them (without managedFields), which the diff then leaves out of both sides.
const byUid = () => new Map(sim.store.list().map((p) => [uidOf(p), podToKubectlJson(p)]));

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'nodescope-diff-'));
  h = await startSshHarness({ startKubelet: async (socketPath) => (sim = await startSimulatedKubelet({ socketPath, pods: 60, seed: 5 })) });
}, 60_000);
afterAll(async () => {
  await h?.stop();
  await rm(dir, { recursive: true, force: true });
});

describe('nodescope diff', () => {
  it('shows a node against a snapshot of itself taken before some churn: exactly the pods the simulator changed', async () => {
    const snapshot = join(dir, 'before.json');
    const exported = await nodescope(['export', ...node(), '--file', snapshot]);
    expect(exported.code, exported.stderr).toBe(EXIT.ok);
    const before = byUid();
    // The churn runs between the snapshot and the comparison, and stops before it, so the node holds still.
    sim.churn.setRate(40);
    await new Promise((r) => setTimeout(r, 1500));
    sim.churn.setRate(0);
    const after = byUid();
    const changed = [...after].filter(([uid, json]) => before.has(uid) && before.get(uid) !== json).map(([uid]) => uid);
    const added = [...after.keys()].filter((uid) => !before.has(uid));
    const removed = [...before.keys()].filter((uid) => !after.has(uid));
    expect(changed.length + added.length + removed.length).toBeGreaterThan(0);

    const r = await nodescope(['diff', snapshot, ...node(), '-o', 'patch', '--no-default-ignores']);
    expect(r.code, r.stderr).toBe(1);
    const lines = r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l) as { uid: string; change: string; patch: Operation[] });
    const of = (change: string) => lines.filter((l) => l.change === change).map((l) => l.uid).sort();
    expect(of('changed')).toEqual(changed.sort());
    expect(of('added')).toEqual(added.sort());
    expect(of('removed')).toEqual(removed.sort());
    // Each patch, applied by a JSON Patch library Nodescope did not write, turns the snapshot's pod into the node's.
    const list = JSON.parse(await readFile(snapshot, 'utf8')) as { items: Record<string, unknown>[] };
    for (const line of lines.filter((l) => l.change === 'changed')) {
      const left = list.items.find((p) => (p.metadata as { uid: string }).uid === line.uid)!;
      const { apiVersion: _a, kind: _k, ...expected } = JSON.parse(after.get(line.uid)!) as Record<string, unknown>;
      const patched = fastJsonPatch.applyPatch(structuredClone(left), line.patch, true, false).newDocument as Record<string, unknown>;
      const { apiVersion: _b, kind: _c, ...got } = patched;
      expect(got).toEqual(expected);
    }

    const text = await nodescope(['diff', snapshot, ...node()]);
    expect(text.code).toBe(1);
    expect(text.stdout).toMatch(new RegExp(`${changed.length} changed, ${added.length} only on the right, ${removed.length} only on the left`));
    expect(text.stdout).not.toContain('\x1b['); // piped: no colours
    expect(text.stdout).toContain(`note: ${snapshot} has no managedFields (exported without --show-managed-fields): they are not compared`);
  }, 60_000);

  it('exits 0 for a source against itself, and compares one pod by UID or by name', async () => {
    const a = join(dir, 'a.json');
    expect((await nodescope(['export', ...node(), '--file', a])).code).toBe(EXIT.ok);
    const same = await nodescope(['diff', a, ...node()]);
    expect(same.code, same.stdout + same.stderr).toBe(EXIT.ok);
    expect(same.stdout).toMatch(/^0 changed, 0 only on the right, 0 only on the left, \d+ unchanged$/m);

    const [first, second] = sim.store.list();
    const uid = uidOf(first!);
    const meta = first!.metadata as PodObject;
    sim.store.apply({ op: 'update', pod: { ...first!, metadata: { ...meta, labels: { ...(meta.labels as PodObject), tier: 'canary' } } } });
    const one = await nodescope(['diff', a, ...node(), '--uid', uid]);
    expect(one.code, one.stderr).toBe(1);
    expect(one.stdout).toContain(`metadata.labels.tier: added "canary"`);
    const m2 = second!.metadata as PodObject;
    const two = await nodescope(['diff', a, ...node(), '--pod', `${String(meta.namespace)}/${String(meta.name)}..${String(m2.namespace)}/${String(m2.name)}`, '-o', 'json']);
    expect([0, 1]).toContain(two.code);
    const parsed = JSON.parse(two.stdout) as { kind: string; pods: { left: { uid: string }; right: { uid: string } }[] };
    expect(parsed.kind).toBe('NodescopeDiff');
    if (parsed.pods.length) expect([parsed.pods[0]!.left.uid, parsed.pods[0]!.right.uid]).toEqual([uid, uidOf(second!)]);
  }, 60_000);

  it('compares a recording at two instants with FILE@TIME', async () => {
    const rec = join(dir, 'rec.ndjson');
    sim.churn.setRate(30);
    const recorded = await nodescope(['record', ...node(), '--file', rec, '--duration', '2s']);
    sim.churn.setRate(0);
    expect(recorded.code, recorded.stderr).toBe(EXIT.ok);
    const r = await nodescope(['diff', `${rec}@+0s`, rec, '-o', 'json']);
    expect(r.code, r.stderr).toBe(1);
    expect((JSON.parse(r.stdout) as { left: { source: string } }).left.source).toBe(`${rec}@+0s`);
  }, 60_000);

  it('says what is wrong with bad usage, exit 2; nodescope --help lists diff', async () => {
    const help = await nodescope(['--help']);
    expect(help.stdout).toMatch(/^ {2}diff +compare two sources/m);
    const one = await nodescope(['diff', 'a.json']);
    expect(one.code).toBe(EXIT.usage);
    expect(one.stderr).toContain('give two sources to compare');
    const bad = await nodescope(['diff', 'a.json', 'b.json', '--ignore', 'spec.containers[name=app']);
    expect(bad.code).toBe(EXIT.usage);
    expect(bad.stderr).toMatch(/bad --ignore: bad path 'spec.containers\[name=app' at character 16/);
    const missing = await nodescope(['diff', join(dir, 'nope.json'), join(dir, 'nope2.json')]);
    expect(missing.code).toBe(EXIT.usage);
    expect(missing.stderr).toContain('no such file');
  });
});
