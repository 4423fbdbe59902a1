// The node commands against a kubelet that sends a pod that does not decode, a uid two pods share and a
// pod with no uid (nodescope sim --undecodable/--duplicate-uids/--empty-uids): the good pods are all
// printed, each odd one is named, and the watch goes on.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PodObject } from '../pod/pod-tree';
import { startSimulatedKubelet, type SimulatedKubelet } from '../sim/kubelet-server';
import { EXIT } from './exit-codes';

const BIN = resolve(dirname(fileURLToPath(import.meta.url)), '../../bin/nodescope.js');

/** Runs the CLI; `until` sees stdout as it grows and may answer with Ctrl-C (true). */
function nodescope(args: string[], until?: (out: string) => boolean): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [BIN, ...args]);
  const run = { code: null as number | null, stdout: '', stderr: '' };
  child.stdout.on('data', (d: Buffer) => {
    run.stdout += d.toString();
    if (until?.(run.stdout)) child.kill('SIGINT');
  });
  child.stderr.on('data', (d: Buffer) => (run.stderr += d.toString()));
  return new Promise((ok) => child.on('close', (code) => ok({ ...run, code })));
}

let dir: string;
let sim: SimulatedKubelet;
let socket: string;
let documented: string;
const PODS = 8;
/** The faulty pods, as the simulator chose them: every other one from the second (pod-faults.ts). */
const meta = (i: number) => sim.store.list()[i]!.metadata as PodObject;
const nameOf = (i: number) => `${meta(i).namespace as string}/${meta(i).name as string}`;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'nodescope-faulty-'));
  socket = join(dir, 'pods.sock');
  documented = join(dir, 'documented.sock');
  sim = await startSimulatedKubelet({ socketPath: socket, documentedSocketPath: documented, pods: PODS, seed: 3, faults: { undecodable: 1, duplicateUids: 1, emptyUids: 1 } });
});
afterAll(async () => {
  await sim?.stop();
  await rm(dir, { recursive: true, force: true });
});

describe('a node with a pod that does not decode', () => {
  const badUid = () => meta(1).uid as string;
  const names = (text: string) => sim.store.list().map((_, i) => meta(i).name as string).filter((n) => text.includes(n));

  it('pods (table and --mask) print every other pod and name the bad one by index, byte offset and uid', async () => {
    for (const args of [[], ['--mask', 'metadata.name,status.phase', '-o', 'ndjson'], ['-o', 'json']]) {
      const r = await nodescope(['pods', '--local', socket, ...args]);
      expect(r.code, r.stderr).toBe(EXIT.data);
      expect(names(r.stdout)).toHaveLength(PODS - 1);
      expect(r.stdout).not.toContain(meta(1).name);
      expect(r.stderr).toContain(`left out a pod that does not decode: cannot decode pod ${nameOf(1)}`);
      expect(r.stderr).toContain(`uid ${badUid()}`);
      expect(r.stderr).toMatch(/byte offset \d+/);
    }
    const table = await nodescope(['pods', '--local', socket]);
    expect(table.stderr).toMatch(new RegExp(`\\(ListPods pods\\[1\\] at byte \\d+, uid ${badUid()}\\): length 5 runs past the end of its message`));
  }, 30_000);

  it('get prints a good pod, and names the bad one when asked for it', async () => {
    const good = await nodescope(['get', '--local', socket, meta(2).uid as string]);
    expect(good.code, good.stderr).toBe(EXIT.ok);
    expect(JSON.parse(good.stdout).metadata.name).toBe(meta(2).name);
    const bad = await nodescope(['get', '--local', socket, badUid()]);
    expect(bad.code).toBe(EXIT.data);
    expect(bad.stderr).toContain(`cannot decode pod ${nameOf(1)} (GetPod ${badUid()}, uid ${badUid()})`);
  }, 30_000);

  for (const api of ['shipped', 'documented'] as const) {
    it(`watch (${api}) shows the good pods, names the odd ones, and keeps following changes`, async () => {
      const target = api === 'shipped' ? socket : documented;
      let changed = false;
      let renamed = '';
      const r = await nodescope(['watch', '--local', target, '--api', api, '-o', 'ndjson'], (out) => {
        const lines = out.split('\n').filter(Boolean);
        if (lines.length >= PODS - 3 && !changed) {
          changed = true;
          // A change to a good pod after the sync: the watch must still be following.
          const pod = sim.store.list()[2]!;
          renamed = `changed-${api}`;
          sim.store.apply({ op: 'update', pod: { ...pod, metadata: { ...(pod.metadata as PodObject), labels: { renamed } } } });
        }
        return out.includes(renamed) && renamed !== '';
      });
      expect(r.code, r.stderr).toBe(EXIT.data);
      const events = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as { type: string; object: { metadata: { name: string; uid: string } } });
      // Index 1 does not decode, 3 shares the uid of 0 (the first is kept), 5 has no uid.
      expect(events.slice(0, PODS - 3).map((e) => e.object.metadata.name).sort()).toEqual([0, 2, 4, 6, 7].map((i) => meta(i).name).sort());
      expect(events.at(-1)).toMatchObject({ type: 'MODIFIED', object: { metadata: { name: meta(2).name } } });
      expect(r.stderr).toContain(`left out a pod that does not decode: cannot decode pod ${nameOf(1)}`);
      expect(r.stderr).toContain(`pod ${nameOf(3)} has uid ${meta(0).uid as string}, the same as pod ${nameOf(0)}; only the first is shown`);
      expect(r.stderr).toContain(`pod ${nameOf(5)} has no metadata.uid`);
    }, 30_000);
  }
});

describe('a node with a pod whose managedFields nest deep (nodescope sim --managed-fields-depth)', () => {
  it('prints them in full at a depth kubectl prints, from pods -o json and export', async () => {
    const k = await startSimulatedKubelet({ socketPath: join(dir, 'deep.sock'), pods: 4, seed: 6, faults: { managedFieldsDepth: 2000 } });
    try {
      const json = await nodescope(['pods', '--local', join(dir, 'deep.sock'), '-o', 'json', '--show-managed-fields']);
      expect(json.code, json.stderr).toBe(EXIT.ok);
      expect(json.stdout).not.toContain('undefined');
      expect(json.stdout.split('"f:spec": {').length - 1).toBeGreaterThanOrEqual(1999);
      expect(JSON.parse(json.stdout).items).toHaveLength(4);
      const ndjson = await nodescope(['export', '--local', join(dir, 'deep.sock'), '-o', 'ndjson', '--show-managed-fields']);
      expect(ndjson.code, ndjson.stderr).toBe(EXIT.ok);
      expect(ndjson.stdout).toContain(`${'{"f:spec":'.repeat(1999)}{}`);
    } finally {
      await k.stop();
    }
  }, 30_000);

  it('names the pod nested deeper than Go allows and prints the others; hidden, its managed fields are not read', async () => {
    const k = await startSimulatedKubelet({ socketPath: join(dir, 'deeper.sock'), pods: 4, seed: 6, faults: { managedFieldsDepth: 100_000 } });
    try {
      for (const args of [['-o', 'json', '--show-managed-fields'], []]) {
        const r = await nodescope(['pods', '--local', join(dir, 'deeper.sock'), ...args]);
        expect(r.code, r.stderr).toBe(EXIT.data);
        expect(r.stderr).toMatch(/left out a pod that does not decode: .*fieldsV1 is nested 100000 levels deep; kubectl cannot read or print more than 9996/);
        if (args.length) expect(JSON.parse(r.stdout).items).toHaveLength(3);
      }
      // kubectl's default hides managedFields: the JSON printer skips them unread, so the pod prints whole.
      const hidden = await nodescope(['pods', '--local', join(dir, 'deeper.sock'), '-o', 'json']);
      expect(hidden.code, hidden.stderr).toBe(EXIT.ok);
      expect(JSON.parse(hidden.stdout).items).toHaveLength(4);
    } finally {
      await k.stop();
    }
  }, 30_000);
});
