import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { containerLogs } from '../logs/container-logs';
import { localFileAccess } from '../logs/local-file-access';
import type { PodObject } from '../pod/pod-tree';
import { crashLogLine, parseCrashLog, type CrashLog } from './crash-log';
import { readInstanceTail } from './crash-log-capture';
import { findCrashLog, readCrashLog } from './crash-log-read';
import { endedInstances } from './ended-instances';

let dir: string;
beforeEach(async () => (dir = await mkdtemp(join(tmpdir(), 'ns-crashlog-'))));
afterEach(() => rm(dir, { recursive: true, force: true }));

const status = (s: PodObject): PodObject => ({ metadata: { uid: 'u1', namespace: 'default', name: 'web' }, spec: { containers: [{ name: 'app' }] }, status: { containerStatuses: [{ name: 'app', ...s }] } });
const terminated = (id: string, exitCode = 2) => ({ terminated: { containerID: id, exitCode, reason: 'Error', finishedAt: '2026-11-27T10:00:00Z' } });

describe('which instances a pod says have ended', () => {
  it('numbers them as the kubelet numbers the files: a running container\'s last state is the attempt before, a waiting one\'s is its own', () => {
    expect(endedInstances(status({ containerID: 'c://b', restartCount: 3, state: { running: {} }, lastState: terminated('c://a') }))).toEqual([
      { container: 'app', containerID: 'c://a', instance: 2, ended: 'restarted', reason: 'Error', exitCode: 2, finishedAt: '2026-11-27T10:00:00Z' },
    ]);
    // CrashLoopBackOff: the status names the dead container, which is also its last state.
    expect(endedInstances(status({ containerID: 'c://a', restartCount: 3, state: { waiting: { reason: 'CrashLoopBackOff' } }, lastState: terminated('c://a') }))[0]!.instance).toBe(3);
    // A failed pod: the current state is the end.
    expect(endedInstances(status({ containerID: 'c://a', restartCount: 0, state: terminated('c://a', 1), lastState: {} })).map((e) => [e.instance, e.ended])).toEqual([[0, 'ended']]);
    // Never created (no container ID): no log to keep.
    expect(endedInstances(status({ restartCount: 0, state: { terminated: { exitCode: 128, reason: 'StartError' } } }))).toEqual([]);
  });
});

describe('the end of an instance\'s log', () => {
  const records = Array.from({ length: 10 }, (_, i) => `2026-11-27T10:00:0${i}.5Z ${i % 3 ? 'stdout' : 'stderr'} ${i === 4 ? 'P' : 'F'} line ${i}${i === 4 ? '' : '\n'}`);
  beforeEach(async () => {
    await mkdir(join(dir, 'default_web_u1', 'app'), { recursive: true });
    await writeFile(join(dir, 'default_web_u1', 'app', '0.log'), records.map((r) => (r.endsWith('\n') ? r : `${r}\n`)).join(''));
  });
  const pod = () => ({ namespace: 'default', name: 'web', uid: 'u1', path: join(dir, 'default_web_u1') });
  const logs = containerLogs(localFileAccess());

  it('keeps the newest records within the lines and bytes allowed, as the node held them, and says when it cut', async () => {
    const all = await readInstanceTail(logs, { pod: pod(), container: 'app', instance: 0 }, 100, 1 << 20);
    expect(all).toMatchObject({ lines: 10, truncated: false });
    expect(all.records.toString()).toBe(records.map((r) => (r.endsWith('\n') ? r : `${r}\n`)).join(''));
    const three = await readInstanceTail(logs, { pod: pod(), container: 'app', instance: 0 }, 3, 1 << 20);
    expect(three).toMatchObject({ lines: 3, truncated: true });
    expect(three.records.toString()).toBe(records.slice(7).join(''));
    const small = await readInstanceTail(logs, { pod: pod(), container: 'app', instance: 0 }, 100, records[9]!.length + records[8]!.length);
    expect(small.records.toString()).toBe(records.slice(8).join(''));
    // Less room than one record: its time, stream and tag, and the end of what it said.
    const tiny = await readInstanceTail(logs, { pod: pod(), container: 'app', instance: 0 }, 100, 36);
    expect(tiny.records.toString()).toBe('2026-11-27T10:00:09.5Z stderr F e 9\n');
  });

  it('reads back from its LOG line through the kubelet reader: text, or base64 when not UTF-8', async () => {
    const tail = await readInstanceTail(logs, { pod: pod(), container: 'app', instance: 0 }, 100, 1 << 20);
    const log: CrashLog = { time: Date.parse('2026-11-27T10:00:10Z'), uid: 'u1', namespace: 'default', name: 'web', container: 'app', containerID: 'c://a', instance: 0, ended: 'restarted', ...tail };
    const line = crashLogLine(log);
    expect(JSON.parse(line)).toMatchObject({ type: 'LOG', log: tail.records.toString() });
    const back = parseCrashLog(JSON.parse(line) as Record<string, unknown>, log.time) as CrashLog;
    expect(back.records).toEqual(tail.records);
    let out = '';
    for await (const w of readCrashLog(back, { tailLines: 2, timestamps: true })) out += w.bytes.toString();
    expect(out).toBe('2026-11-27T10:00:08.500000000Z line 8\n2026-11-27T10:00:09.500000000Z line 9\n');

    const binary = { ...log, records: Buffer.from('2026-11-27T10:00:00Z stdout F \xff\xfe\n', 'latin1') };
    const json = JSON.parse(crashLogLine(binary)) as Record<string, unknown>;
    expect(json.log).toBeUndefined();
    expect((parseCrashLog(json, log.time) as CrashLog).records).toEqual(binary.records);
    expect(parseCrashLog({ ...json, instance: -1 }, log.time)).toMatch(/instance/);
  });
});

describe('which capture answers a question about a pod at a time', () => {
  const log = (id: string, extra: Partial<CrashLog> = {}): CrashLog => ({ time: 0, uid: 'u1', namespace: 'default', name: 'web', container: 'app', containerID: id, instance: 2, ended: 'restarted', lines: 1, truncated: false, records: Buffer.from('x'), ...extra });
  const running = status({ containerID: 'c://b', restartCount: 3, state: { running: {} }, lastState: terminated('c://a') });

  it('follows the container ID the status names, and says why when it holds none', () => {
    expect(findCrashLog([log('c://a')], running, 'app', true, 'T')).toEqual({ log: log('c://a') });
    expect(findCrashLog([log('c://a')], running, 'app', false, 'T')).toMatchObject({ message: 'container app of pod default/web was running at T: a recording keeps the end of an instance\'s log once it ends', nextStep: expect.stringMatching(/--previous/) });
    expect(findCrashLog([log('c://other')], running, 'app', true, 'T')).toMatchObject({ message: expect.stringMatching(/holds no log for instance 2 of container app in pod default\/web: it ended before the recording started/) });
    // An older recording, made before logs were kept: said as such.
    expect(findCrashLog([], running, 'app', true, 'T')).toMatchObject({ message: expect.stringMatching(/holds no container logs at all, so none for instance 2 .*a Nodescope that did not keep them/) });
    expect(findCrashLog([log('c://a', { missing: 'not allowed to list /var/log/pods' })], running, 'app', true, 'T')).toMatchObject({ message: expect.stringMatching(/: not allowed to list/) });
    expect(findCrashLog([], running, 'db', false, 'T')).toMatchObject({ message: 'pod default/web has no container db at T', nextStep: 'Its containers: app.' });
    expect(findCrashLog([], status({ restartCount: 0, state: { running: {} }, lastState: {} }), 'app', true, 'T')).toMatchObject({ message: expect.stringMatching(/^previous terminated container "app" in pod "default\/web" not found/) });
  });
});
