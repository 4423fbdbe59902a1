// Node commands on snapshot files, as a user runs them: no node, no network.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { decodePod } from '../pod/decode';
import { podBytesListToKubectl } from '../pod/kubectl-json';
import type { PodObject } from '../pod/pod-tree';
import { webPodBytes, webPodJson } from '../pod/testdata/handmade-pods';
import { endLine, headerLine, podLine, syncedLine } from '../recording/recording-format';
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
    expect(r.stdout.split('\n')[1]).toMatch(/^default\s+web-0\s+0\/1\s+Running\s+0\s+5m$/);
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

/** A recording as Nodescope writes it: pod web-0 at T, MODIFIED at each of `events` (ms after T), END at `end`. */
const T = Date.parse('2026-11-23T10:00:00.000Z');
function recordingText(events: number[], end: number): string[] {
  const pod = decodePod(webPodBytes()).pod;
  const modified = structuredClone(pod);
  (modified.status as PodObject).phase = 'Failed';
  return [headerLine({ start: T, node: 'worker-1' }), podLine(T, 'INITIAL', pod), syncedLine(T, 1), ...events.map((e) => podLine(T + e, 'MODIFIED', modified)), endLine(T + end)];
}
const write = (name: string, lines: string[]) => {
  const file = join(dir, name);
  writeFileSync(file, lines.map((l) => l.replace(/\n$/, '')).join('\n') + '\n');
  return file;
};

describe('node commands on a recording file', () => {
  it('--at the length the recording is said to run reaches its end (the end is inclusive): the length is not rounded up', async () => {
    const file = write('short.recording', recordingText([1000, 6000], 6600));
    const outside = await nodescope(['pods', file, '--at', '+1h']);
    expect(outside.code).toBe(EXIT.usage);
    const length = /runs from .* to .* \((\+[^)]+)\)/.exec(outside.stderr)?.[1];
    expect(length, outside.stderr).toBe('+6.6s');
    const atEnd = await nodescope(['pods', file, '--at', length!]);
    expect(atEnd.code, atEnd.stderr).toBe(EXIT.ok);
    expect(atEnd.stderr).toContain('(+6.6s): 1 pods');
    expect(atEnd.stdout).toMatch(/web-0\s+0\/1\s+Failed/);
  }, 30_000);

  it('a startedAt later than the lines after it is an error naming the line, not a complaint about an --at never given', async () => {
    const lines = recordingText([1000], 2000);
    lines[0] = lines[0]!.replace('2026-11-23T10:00:00.000Z', '2026-11-23T10:00:05.000Z');
    const r = await nodescope(['pods', write('late-start.recording', lines)]);
    expect(r.code).toBe(EXIT.usage);
    expect(r.stderr).toMatch(/the time 2026-11-23T10:00:00.000Z is earlier than 2026-11-23T10:00:05.000Z on line 1 \(the header's startedAt\).* at line 2/);
    expect(r.stderr).toMatch(/Correct that time in a copy of the file/);
    expect(r.stderr).not.toMatch(/--at/);
  }, 30_000);

  it('one event dated 2099, or dated in a form that is not RFC 3339, is an error naming its line, not every later event moved', async () => {
    const lines = recordingText([1000, 2000, 3000], 4000);
    const far = [...lines];
    far[4] = far[4]!.replace('2026-11-23T10:00:02.000Z', '2099-11-23T10:00:02.000Z');
    const r = await nodescope(['pods', write('2099.recording', far), '--at', '+1s']);
    expect(r.code).toBe(EXIT.usage);
    expect(r.stderr).toMatch(/the time 2026-11-23T10:00:03.000Z is earlier than 2099-11-23T10:00:02.000Z on line 5, but times in a recording never go back: one of the two lines is wrong at line 6/);
    for (const loose of ['2026-11-23 10:00:02Z', 'Mon, 23 Nov 2026 10:00:02 GMT', '2026-11-23T10:00:02']) {
      const bad = [...lines];
      bad[4] = bad[4]!.replace('2026-11-23T10:00:02.000Z', loose);
      const b = await nodescope(['pods', write('loose.recording', bad)]);
      expect(b.code, loose).toBe(EXIT.usage);
      expect(b.stderr).toContain(`a recording line whose time "${loose}" is not an RFC 3339 time at line 5`);
    }
  }, 60_000);
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

describe('watch on a recording, as a table', () => {
  it('says what each MODIFIED event changed, in the events feed wording', async () => {
    const r = await nodescope(['watch', write('changes.recording', recordingText([1000], 2000))]);
    expect(r.code, r.stderr).toBe(EXIT.ok);
    const modified = r.stdout.split('\n').find((l) => /\sMODIFIED\s/.test(l));
    expect(modified).toMatch(/web-0\s+Failed .*: (status|phase) \S+ → Failed/);
    expect(r.stdout.split('\n').find((l) => /\sADDED\s/.test(l))).not.toMatch(/→/);
  }, 30_000);
});
