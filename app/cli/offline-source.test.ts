// Node commands on snapshot files, as a user runs them: no node, no network.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { podBytesListToKubectl } from '../pod/kubectl-json';
import { webPodBytes, webPodJson } from '../pod/testdata/handmade-pods';
import { startSimulatedKubelet } from '../sim/kubelet-server';
import { EXIT } from './exit-codes';
import { nodescope } from './testing/run-nodescope';

const dir = mkdtempSync(join(tmpdir(), 'nodescope-offline-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('node commands on a snapshot file', () => {
  it('pods prints the table with ages as of the snapshot, and says on stderr that it is offline', async () => {
    const file = join(dir, 'pods.json');
    writeFileSync(file, podBytesListToKubectl([webPodBytes()]).bytes);
    writeFileSync(`${file}.nodescope.json`, JSON.stringify({ nodescopeSnapshot: 1, node: 'worker-1', takenAt: '2026-06-26T10:17:19Z', bytes: readFileSync(file).length, pods: 1 }));
    const r = await nodescope(['pods', file]);
    expect(r.code, r.stderr).toBe(EXIT.ok);
    expect(r.stdout.split('\n')[1]).toMatch(/^default\s+web-0\s+Running\s+0\/1\s+0\s+5m\s+<none>$/);
    expect(r.stderr).toContain(`offline snapshot ${file} (node worker-1, taken 2026-06-26T10:17:19Z): 1 pods`);
  }, 30_000);

  it('get and export work on a .pb as on a node: the pod as kubectl prints it', async () => {
    const pb = join(dir, 'web.pb');
    writeFileSync(pb, webPodBytes());
    const get = await nodescope(['get', pb, '0b6c6f5e-7d52-4a39-9b2e-2f5b2b7f2f11']);
    expect(get.code, get.stderr).toBe(EXIT.ok);
    expect(get.stdout).toBe(webPodJson);
    const exported = await nodescope(['export', pb]);
    expect(exported.stdout).toBe(Buffer.from(podBytesListToKubectl([webPodBytes()]).bytes).toString());
    const over = await nodescope(['export', pb, '--file', pb]);
    expect(over.code).toBe(EXIT.usage);
    expect(readFileSync(pb)).toEqual(Buffer.from(webPodBytes()));
  }, 30_000);

  it('a bad file exits 2 with the file, the line and what to do', async () => {
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, '{"apiVersion": "v1",\n "items": [ {"metadata": {"uid": 5}} ]}');
    const r = await nodescope(['pods', bad]);
    expect(r.code).toBe(EXIT.usage);
    expect(r.stderr).toMatch(new RegExp(`${bad}: pod item 0: metadata.uid: expected a string, found number 5 at line 2`));
    expect(r.stderr).toMatch(/Nodescope never changes it/);
  }, 30_000);
});

describe('an export of a node with pods sharing a uid or without one (sim --duplicate-uids 2 --empty-uids 2)', () => {
  it('reopens whole: pods and export print every pod, byte for byte; watch and get keep the first of a uid and name the others', async () => {
    const socket = join(dir, 'odd.sock');
    const sim = await startSimulatedKubelet({ socketPath: socket, pods: 12, seed: 5, faults: { duplicateUids: 2, emptyUids: 2 } });
    try {
      const first = join(dir, 'odd.json');
      const exported = await nodescope(['export', '--local', socket, '--file', first]);
      expect(exported.code, exported.stderr).toBe(EXIT.ok);
      const bytes = readFileSync(first, 'utf8');
      const items = (JSON.parse(bytes) as { items: { metadata: { uid?: string; name: string } }[] }).items;
      expect(items).toHaveLength(12);
      const uids = items.map((p) => p.metadata.uid ?? '');
      expect(uids.filter((u) => u === '')).toHaveLength(2);
      expect(new Set(uids.filter(Boolean)).size).toBe(8);

      // export -> pods -> export: the same bytes every time.
      const printed = await nodescope(['pods', first, '-o', 'json']);
      expect(printed.code, printed.stderr).toBe(EXIT.ok);
      expect(printed.stdout).toBe(bytes);
      const again = join(dir, 'odd-again.json');
      const reexported = await nodescope(['export', first, '--file', again]);
      expect(reexported.code, reexported.stderr).toBe(EXIT.ok);
      expect(readFileSync(again, 'utf8')).toBe(bytes);

      // watch follows pods by uid: 8 shown, each of the other 4 named.
      const watched = await nodescope(['watch', first, '-o', 'ndjson']);
      expect(watched.code, watched.stderr).toBe(EXIT.ok);
      const shown = watched.stdout.trim().split('\n').map((l) => (JSON.parse(l) as { object: { metadata: { name: string } } }).object.metadata.name);
      const seen = new Set<string>();
      expect(shown).toEqual(items.filter((p) => p.metadata.uid && !seen.has(p.metadata.uid) && seen.add(p.metadata.uid)).map((p) => p.metadata.name));
      expect(watched.stderr.match(/has no metadata\.uid; Nodescope follows pods by uid, so it is not shown/g)).toHaveLength(2);
      expect(watched.stderr.match(/only the first is shown/g)).toHaveLength(2);

      // get: the first pod of a shared uid, the other named.
      const shared = uids.find((u, i) => u && uids.indexOf(u) !== i)!;
      const [one, other] = items.filter((p) => p.metadata.uid === shared);
      const got = await nodescope(['get', first, shared]);
      expect(got.code, got.stderr).toBe(EXIT.ok);
      expect((JSON.parse(got.stdout) as { metadata: { name: string } }).metadata.name).toBe(one!.metadata.name);
      expect(got.stderr).toContain(`${other!.metadata.name} has uid ${shared}, the same as pod`);
    } finally {
      await sim.stop();
    }
  }, 60_000);
});
