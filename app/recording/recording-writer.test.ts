import { spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { decodePod } from '../pod/decode';
import { podToKubectlJson } from '../pod/kubectl-json';
import type { DecodedPod, PodObject } from '../pod/pod-tree';
import { webPodBytes } from '../pod/testdata/handmade-pods';
import { openPodFile, PodFileError, type PodFile, type RecordingFile } from '../snapshot/open-pod-file';
import { RecordingWriteError, startRecording } from './recording-writer';

const dir = mkdtempSync(join(tmpdir(), 'nodescope-recording-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const fresh = () => join(dir, `r${n++}.ndjson`);

const T = Date.parse('2026-11-23T10:00:00.000Z');
function pod(name: string, phase = 'Running'): DecodedPod {
  const p = decodePod(webPodBytes()).pod;
  const meta = p.metadata as PodObject;
  meta.name = name;
  meta.uid = `uid-${name}`;
  (p.status as PodObject).phase = phase;
  return { pod: p, unknownFields: [] };
}
const names = (pods: DecodedPod[]) => pods.map((p) => `${(p.pod.metadata as PodObject).name}:${(p.pod.status as PodObject).phase}`).sort();
const recording = (f: PodFile): RecordingFile => {
  if (f.kind !== 'recording') throw new Error(`expected a recording, got ${f.kind}`);
  return f;
};

/** a, b at the start; +1 s c added; +2 s a Failed; +3 s b deleted; stopped at +4 s. */
async function record(path: string, close = true) {
  const w = await startRecording(path, { provenance: { node: 'worker-1', origin: 'nodescope record' }, pods: [pod('a'), pod('b')], start: T });
  w.append({ time: T + 1000, type: 'ADDED', pod: pod('c', 'Pending') });
  w.append({ time: T + 2000, type: 'MODIFIED', pod: pod('a', 'Failed') });
  w.append({ time: T + 3000, type: 'DELETED', pod: pod('b') });
  if (close) await w.close();
  return w;
}

describe('recordings', () => {
  it('open with their start, end, provenance and the pod set at any instant', async () => {
    const path = fresh();
    await record(path);
    const r = recording(await openPodFile(path));
    expect(r.complete).toBe(true);
    expect(r.start).toBe(T);
    expect(r.end).toBeGreaterThanOrEqual(T + 3000);
    expect(r.provenance).toEqual({ node: 'worker-1', origin: 'nodescope record', takenAt: new Date(T).toISOString() });
    expect(names(r.initial)).toEqual(['a:Running', 'b:Running']);
    expect(r.events.map((e) => e.type)).toEqual(['ADDED', 'MODIFIED', 'DELETED']);
    expect(names(r.podsAt(T))).toEqual(['a:Running', 'b:Running']);
    expect(names(r.podsAt(T + 1000))).toEqual(['a:Running', 'b:Running', 'c:Pending']);
    expect(names(r.podsAt(T + 2500))).toEqual(['a:Failed', 'b:Running', 'c:Pending']);
    expect(names(r.podsAt(T + 3000))).toEqual(['a:Failed', 'c:Pending']);
  });

  it('keeps each pod as kubectl prints it, managedFields included', async () => {
    const path = fresh();
    await record(path);
    const r = recording(await openPodFile(path));
    expect(podToKubectlJson(r.initial[0]!.pod, { showManagedFields: true })).toBe(podToKubectlJson(pod('a').pod, { showManagedFields: true }));
  });

  it('after a crash (no END, a torn last line) still opens, with every whole event, and says what was lost', async () => {
    const path = fresh();
    await record(path, false);
    const whole = readFileSync(path, 'utf8');
    appendFileSync(path, '{"time":"2026-11-23T10:00:04.000Z","type":"ADDED","object":{"metadata":{"na');
    const r = recording(await openPodFile(path));
    expect(r.complete).toBe(false);
    expect(r.events).toHaveLength(3);
    expect(r.end).toBe(T + 3000);
    expect(r.notes.join('\n')).toMatch(/cut off, as after a crash/);
    expect(r.notes.join('\n')).toMatch(/not stopped cleanly/);
    expect(whole.split('\n').length).toBe(2 + 2 + 3 + 1); // header, 2 pods, SYNCED, 3 events, trailing ''
  });

  it('a disk that refuses a write leaves every whole event before it readable, and says how many', () => {
    const path = fresh();
    const helper = join(import.meta.dirname, 'testing', 'record-until-refused.ts');
    const runTs = join(import.meta.dirname, '..', '..', 'bin', 'run-ts.js');
    // ulimit -f: writes past 50 KiB fail (EFBIG) as on a full disk, part-way through a line.
    const r = spawnSync('sh', ['-c', `ulimit -f 100; exec "${process.execPath}" "${runTs}" "${helper}" "${path}"`], { encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    const { written, message } = JSON.parse(r.stdout.trim().split('\n').at(-1)!) as { written: number; message: string };
    expect(message).toMatch(/file is larger than this system allows.*\(\d+ events\) is kept/);
    expect(readFileSync(path, 'utf8').endsWith('\n')).toBe(true);
    return openPodFile(path).then((f) => {
      const rec = recording(f);
      expect(rec.events).toHaveLength(written);
      expect(rec.complete).toBe(false);
    });
  }, 30_000);

  it('is private to the user (0600) under the usual umask 022: pods carry secrets in env', async () => {
    const before = process.umask(0o022);
    try {
      const path = fresh();
      await record(path);
      expect(statSync(path).mode & 0o777).toBe(0o600);
    } finally {
      process.umask(before);
    }
  });

  it('a disk full during the initial set leaves no file it could not open, and says nothing was recorded', async () => {
    // A real full disk: a 64 KiB tmpfs, smaller than the initial set.
    const small = join(dir, 'small-disk');
    mkdirSync(small);
    expect(spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', small]).status).toBe(0);
    try {
      const path = join(small, 'full.recording');
      const pods = Array.from({ length: 1000 }, (_, i) => pod(`p${i}`));
      const err = await startRecording(path, { provenance: {}, pods }).then((w) => w.close(), (e: unknown) => e);
      expect(err).toBeInstanceOf(RecordingWriteError);
      expect((err as Error).message).toMatch(/the disk is full\. Nothing was recorded and the file is removed/);
      expect(existsSync(path)).toBe(false);
    } finally {
      spawnSync('umount', [small]);
    }
  });

  it('never writes over an existing file', async () => {
    const path = fresh();
    writeFileSync(path, 'precious');
    const err = await startRecording(path, { provenance: {}, pods: [] }).then(() => undefined, (e: unknown) => e);
    expect(err).toBeInstanceOf(RecordingWriteError);
    expect((err as Error).message).toMatch(/already exists.*new name/);
    expect(readFileSync(path, 'utf8')).toBe('precious');
  });

  it('keeps times in order when the clock steps back', async () => {
    const path = fresh();
    const w = await startRecording(path, { provenance: {}, pods: [pod('a')], start: T });
    w.append({ time: T + 5000, type: 'MODIFIED', pod: pod('a', 'Failed') });
    w.append({ time: T + 1000, type: 'MODIFIED', pod: pod('a', 'Succeeded') });
    await w.close();
    const r = recording(await openPodFile(path));
    expect(r.events.map((e) => e.time)).toEqual([T + 5000, T + 5000]);
    expect(names(r.podsAt(T + 5000))).toEqual(['a:Succeeded']);
  });

  it('a recording cut inside its initial set, or from a newer version, is refused with why', async () => {
    const path = fresh();
    await record(path);
    const lines = readFileSync(path, 'utf8').split('\n');
    const cut = fresh();
    writeFileSync(cut, `${lines.slice(0, 2).join('\n')}\n`);
    const err = await openPodFile(cut).then(() => undefined, (e: unknown) => e);
    expect(err).toBeInstanceOf(PodFileError);
    expect((err as PodFileError).message).toMatch(/before its initial pod set is complete/);
    const newer = fresh();
    writeFileSync(newer, `${lines[0]!.replace('"nodescopeRecording":1', '"nodescopeRecording":2')}\n`);
    const err2 = (await openPodFile(newer).then(() => undefined, (e: unknown) => e)) as PodFileError;
    expect(err2.problem).toBe('unsupported');
    expect(err2.nextStep).toMatch(/newer Nodescope/);
  });

  it('a damaged line in the middle is an error naming its line, not a silent gap', async () => {
    const path = fresh();
    await record(path);
    const lines = readFileSync(path, 'utf8').split('\n');
    // Cut inside a string, and cut between values (where only the line break tells the line ended).
    for (const cutAt of [30, lines[5]!.indexOf('"object":{') + 10]) {
      const bad = fresh();
      writeFileSync(bad, [...lines.slice(0, 5), lines[5]!.slice(0, cutAt), ...lines.slice(6)].join('\n'));
      const err = (await openPodFile(bad).then(() => undefined, (e: unknown) => e)) as PodFileError;
      expect(err).toBeInstanceOf(PodFileError);
      expect(err.line).toBe(6);
      expect(err.message).toMatch(/cut short/);
    }
  });
});
