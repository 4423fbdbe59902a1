// The flight recorder end to end: `nodescope record` over real sshd against the simulated kubelet with churn,
// then the recording opened with `pods FILE --at`, checked against what the simulator held at those instants.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HARNESS_HOST_ALIASES as A, startSshHarness, type SshHarness } from '../../e2e/harness/ssh-harness';
import { podToNdjsonLine } from '../pod/kubectl-json';
import type { PodObject } from '../pod/pod-tree';
import { startSimulatedKubelet, type SimulatedKubelet } from '../sim/kubelet-server';
import { EXIT } from './exit-codes';
import { nodescope } from './testing/run-nodescope';

let h: SshHarness;
let sim: SimulatedKubelet;
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'nodescope-record-'));
  h = await startSshHarness({ startKubelet: async (socketPath) => (sim = await startSimulatedKubelet({ socketPath, pods: 40, seed: 5, churnPerSecond: 3 })) });
}, 60_000);
afterAll(async () => {
  await h?.stop();
  await rm(dir, { recursive: true, force: true });
});

/** The simulator's pods as NDJSON lines, sorted: what `pods --at` must print for that instant. */
const simLines = () =>
  sim.store
    .list()
    .map((p) => podToNdjsonLine(p))
    .sort();

describe('nodescope record', () => {
  it('records the node with churn over SSH; pods --at shows what the simulator held at each instant', async () => {
    const file = join(dir, 'node.recording');
    // The oracle: the simulator's own pod set, sampled while the recording runs, and when it changed.
    const changes: number[] = [];
    const unsubscribe = sim.store.subscribe(() => changes.push(Date.now()));
    const samples: { time: number; lines: string[] }[] = [];
    const sampler = setInterval(() => samples.push({ time: Date.now(), lines: simLines() }), 100);
    // Without crash logs (record-crash-logs.test.ts has them): reading them runs commands on the same SSH
    // connection, which on a loaded machine delays the watch past the 300 ms this compares within.
    const r = await nodescope(['record', A.target, '-F', h.sshConfig, '--socket', h.socketPath, '--file', file, '--duration', '5s', '--crash-lines', '0']);
    clearInterval(sampler);
    unsubscribe();
    expect(r.code, r.stderr).toBe(EXIT.ok);
    expect(r.stderr).toMatch(/recorded \d+ events/);

    const lines = (await readFile(file, 'utf8')).trimEnd().split('\n');
    expect(JSON.parse(lines[0]!)).toMatchObject({ nodescopeRecording: 1, node: A.target, origin: 'nodescope record' });
    expect(JSON.parse(lines.at(-1)!).type).toBe('END');
    const start = Date.parse(JSON.parse(lines[0]!).startedAt as string);
    const end = Date.parse(JSON.parse(lines.at(-1)!).time as string);

    // An event reaches the recorder a little after the simulator made it: compare only instants with no change
    // in the 300 ms before them, inside the recording.
    const quiet = samples.filter((s) => s.time > start && s.time < end && !changes.some((c) => c <= s.time && c > s.time - 300));
    expect(quiet.length).toBeGreaterThanOrEqual(3);
    const picked = [quiet[0]!, quiet[Math.floor(quiet.length / 2)]!, quiet.at(-1)!];
    const differentSets = new Set(picked.map((s) => s.lines.join('\n')));
    expect(differentSets.size, 'the churn changed the pods between the instants compared').toBeGreaterThan(1);
    for (const s of picked) {
      const at = await nodescope(['pods', file, '--at', new Date(s.time).toISOString(), '-o', 'ndjson']);
      expect(at.code, at.stderr).toBe(EXIT.ok);
      expect(at.stderr).toContain(`offline recording ${file}`);
      expect(at.stdout.trimEnd().split('\n').sort()).toEqual(s.lines);
    }
    // A relative instant works too: +0s is the initial set, every pod of it the simulator's.
    const first = await nodescope(['pods', file, '--at', '+0s', '-o', 'ndjson']);
    expect(first.code, first.stderr).toBe(EXIT.ok);
    const initialUids = first.stdout.trimEnd().split('\n').map((l) => ((JSON.parse(l) as PodObject).metadata as PodObject).uid);
    expect(initialUids.length).toBe(lines.filter((l) => l.includes('"type":"INITIAL"')).length);
  }, 60_000);

  it('refuses an existing file, a file source and a bad duration, before touching anything', async () => {
    const existing = join(dir, 'node.recording');
    const before = await readFile(existing, 'utf8');
    const again = await nodescope(['record', A.target, '-F', h.sshConfig, '--socket', h.socketPath, '--file', existing, '--duration', '1s']);
    expect(again.code).toBe(EXIT.usage);
    expect(again.stderr).toMatch(/already exists: Nodescope never writes over a file/);
    expect(await readFile(existing, 'utf8')).toBe(before);
    const fromFile = await nodescope(['record', existing, '--file', join(dir, 'x.recording')]);
    expect(fromFile.code).toBe(EXIT.usage);
    expect(fromFile.stderr).toMatch(/record needs a live node/);
    const bad = await nodescope(['record', A.target, '-F', h.sshConfig, '--socket', h.socketPath, '--file', join(dir, 'y.recording'), '--duration', 'soon']);
    expect(bad.code).toBe(EXIT.usage);
    expect(bad.stderr).toMatch(/bad --duration 'soon'/);
  }, 30_000);

  it('get, export and watch read the recording offline the same way as a node', async () => {
    const file = join(dir, 'node.recording');
    const pods = await nodescope(['pods', file, '-o', 'ndjson']);
    const uid = ((JSON.parse(pods.stdout.split('\n')[0]!) as PodObject).metadata as PodObject).uid as string;
    const get = await nodescope(['get', file, uid, '-o', 'ndjson']);
    expect(get.code, get.stderr).toBe(EXIT.ok);
    expect(get.stdout).toBe(`${pods.stdout.split('\n')[0]!}\n`);
    const out = join(dir, 'at-end.json');
    const exported = await nodescope(['export', file, '--file', out]);
    expect(exported.code, exported.stderr).toBe(EXIT.ok);
    expect(JSON.parse(await readFile(`${out}.nodescope.json`, 'utf8'))).toMatchObject({ node: A.target, origin: `nodescope export of ${file}` });
    const reread = await nodescope(['pods', out, '-o', 'ndjson']);
    expect(reread.stdout).toBe(pods.stdout);
    const watch = await nodescope(['watch', file]);
    expect(watch.code, watch.stderr).toBe(EXIT.ok);
    expect(watch.stdout).toMatch(/ADDED/);
    expect(watch.stderr).toMatch(/end of the recording/);
  }, 30_000);
});
