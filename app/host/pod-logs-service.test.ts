import { appendFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { detachedCall, type LogRead, type NodeInfo, type PodHistoryView, type PodRow, type ServerFrame } from '../contract';
import { pollUntil } from '../testing/poll-until';
import { createHost, type Host } from './host';
import { createPodLogsService } from './pod-logs-service';
import { localFileAccess } from '../logs/local-file-access';
import { startRecording } from '../recording/recording-writer';
import { callerOf, startCall } from './testing/drive-host';
import { openCallerConnection } from '../core/caller-connection';

// The Logs tab's requests against the real demo node: a simulated kubelet whose containers write CRI log
// files into a private folder, read back through the same reader `nodescope logs` uses.
let inspector: Host;
let call: ReturnType<typeof callerOf>;
let demo: NodeInfo;
let running: PodRow;

beforeAll(async () => {
  inspector = await createHost({ mode: 'browser', stateDir: mkdtempSync(join(tmpdir(), 'ns-logs-')), demo: true, logPollIntervalMs: 50 });
  call = callerOf(inspector);
  const list = async () => (await call<NodeInfo[]>('nodes.list')).find((n) => n.simulated);
  demo = (await pollUntil('the demo node live with pods', list, (n) => n?.state.phase === 'live' && n.podCount > 0))!;
  const { rows } = await call<{ rows: PodRow[] }>('pods.rows', { nodeId: demo.id });
  running = rows.find((r) => r.status === 'Running' && r.restarts === 0)!;
});
afterAll(() => inspector.close());

const ok = (r: LogRead) => {
  if (r.status !== 'ok') throw new Error(`expected lines, got: ${r.message} ${r.nextStep}`);
  return r;
};

describe('logs.read', () => {
  it("returns a demo pod's last lines as text, the tail counted from the end", async () => {
    const fifty = ok(await call<LogRead>('logs.read', { nodeId: demo.id, uid: running.uid, tailLines: 50 }));
    expect(fifty.containers.length).toBeGreaterThan(0);
    // The pod's first app container, as kubectl's default, not the first log folder by name.
    const { summary } = await call<{ summary: { containers: { kind: string; name: string }[] } }>('pods.get', { nodeId: demo.id, uid: running.uid });
    expect(fifty.container).toBe(summary.containers.find((c) => c.kind === 'regular')!.name);
    // Where the lines come from: the node's files (a node read through REST says the kubelet's request, host-rest.test.ts).
    expect(fifty.from).toMatch(new RegExp(`^the log files in /.*_${running.uid}/${fifty.container} on this machine$`));
    expect(fifty.lines.length).toBeGreaterThan(2);
    expect(fifty.lines.every((l) => !l.includes('\n') && !/^\d{4}-\d\d-\d\dT.* std(out|err) [PF] /.test(l))).toBe(true);
    const three = ok(await call<LogRead>('logs.read', { nodeId: demo.id, uid: running.uid, tailLines: 3, timestamps: true }));
    expect(three.lines).toHaveLength(3);
    // The time first, as kubectl logs --timestamps prints it, then the same text the longer read ended with.
    for (const l of three.lines) expect(l).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{9}(Z|[+-]\d\d:\d\d) /);
    const texts = three.lines.map((l) => l.slice(l.indexOf(' ') + 1));
    const again = ok(await call<LogRead>('logs.read', { nodeId: demo.id, uid: running.uid, tailLines: 1000 }));
    expect(again.lines.join('\n')).toContain(texts.slice(0, 2).join('\n'));
  });

  it('says which containers have logs when the one asked for has none, rather than failing', async () => {
    const r = await call<LogRead>('logs.read', { nodeId: demo.id, uid: running.uid, container: 'not-there' });
    expect(r).toMatchObject({ status: 'unavailable', message: expect.stringContaining('not-there'), nextStep: expect.stringContaining('Its containers with logs:') });
  });

  it('says a container that never restarted has no previous instance', async () => {
    const r = await call<LogRead>('logs.read', { nodeId: demo.id, uid: running.uid, previous: true });
    expect(r).toMatchObject({ status: 'unavailable', nextStep: expect.stringContaining('has not restarted') });
  });

  it('says plainly that a snapshot file has no logs', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ns-logs-snap-'));
    await call('pods.export', { nodeId: demo.id, uids: [running.uid], format: 'list', path: join(dir, 'pods.json') });
    const opened = await call<{ nodes: NodeInfo[] }>('sources.open', { paths: [join(dir, 'pods.json')] });
    const r = await call<LogRead>('logs.read', { nodeId: opened.nodes[0]!.id, uid: running.uid });
    expect(r).toMatchObject({ status: 'unavailable', message: expect.stringMatching(/^Logs are not available offline: .* snapshot file/) });
    await call('nodes.remove', { nodeId: opened.nodes[0]!.id });
  });
});

describe('logs.read on a recording', () => {
  it('shows the lines the recorder kept when the instance ended, marked as captured, and why there are none for the current one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ns-logs-rec-'));
    const path = join(dir, 'crash.recording');
    const uid = '0a1b2c3d-0000-4000-8000-00000000000f';
    const status = { name: 'app', containerID: 'containerd://b', restartCount: 1, state: { running: { startedAt: '2026-11-27T10:00:05Z' } }, lastState: { terminated: { containerID: 'containerd://a', exitCode: 2, reason: 'Error', finishedAt: '2026-11-27T10:00:02Z' } } };
    const pod = { pod: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web', namespace: 'default', uid }, spec: { containers: [{ name: 'app' }] }, status: { phase: 'Running', containerStatuses: [status] } }, unknownFields: [] };
    const writer = await startRecording(path, { provenance: { node: 'worker-1' }, pods: [pod] });
    writer.appendCrashLog({ uid, namespace: 'default', name: 'web', container: 'app', containerID: 'containerd://a', instance: 0, ended: 'restarted', exitCode: 2, reason: 'Error', lines: 2, truncated: true, records: Buffer.from('2026-11-27T10:00:01Z stdout F \x1b[32mserving\x1b[0m\n2026-11-27T10:00:02Z stderr F panic: boom\n') });
    await writer.close();
    const opened = await call<{ nodes: NodeInfo[] }>('sources.open', { paths: [path] });
    const nodeId = opened.nodes[0]!.id;
    const r = ok(await call<LogRead>('logs.read', { nodeId, uid, previous: true, timestamps: true }));
    expect(r).toMatchObject({ container: 'app', containers: ['app'], captured: { instance: 0, exitCode: 2, reason: 'Error', truncated: true } });
    expect(r.lines).toEqual(['2026-11-27T10:00:01.000000000Z \x1b[32mserving\x1b[0m', '2026-11-27T10:00:02.000000000Z panic: boom']);
    const current = await call<LogRead>('logs.read', { nodeId, uid });
    expect(current).toMatchObject({ status: 'unavailable', message: expect.stringMatching(/^Container app of pod default\/web was running at .*: a recording keeps the end of an instance's log once it ends\.$/), nextStep: expect.stringContaining('previous') });
    const follow = await call<{ status: string; message: string }>('logs.follow', { nodeId, uid, previous: false });
    expect(follow).toMatchObject({ status: 'unavailable', message: expect.stringContaining('Nothing more is written to a recording') });
    // Its pod's History tab lists the kept log too, and reads it by its instance.
    const history = await call<PodHistoryView>('pods.history', { nodeId, uid });
    expect(history.crashLogs).toEqual([{ time: expect.any(Number), container: 'app', instance: 0, ended: 'restarted', exitCode: 2, reason: 'Error', lines: 2, truncated: true }]);
    const kept = ok(await call<LogRead>('logs.read', { nodeId, uid, container: 'app', instance: 0 }));
    expect(kept).toMatchObject({ captured: { by: 'recording', instance: 0 }, lines: ['\x1b[32mserving\x1b[0m', 'panic: boom'] });
    await call('nodes.remove', { nodeId });
  });
});

type Item = { status: 'following' | 'lines'; lines?: string[] };
const batches = (progress: unknown[]) => (progress as Item[]).filter((p) => p.status === 'lines');

describe('logs.follow', () => {
  it('delivers a line written after it started, then stops when cancelled', async () => {
    // The demo churns: a pod running now (not the one chosen at the start, long ago on a busy machine) is
    // followed, and one that the churn restarts or deletes before it prints (its follow then ends) gives way to
    // another.
    let started: ReturnType<typeof startCall> | undefined;
    let first: Item | undefined;
    for (let attempt = 0; attempt < 5 && !first; attempt++) {
      const { rows } = await call<{ rows: PodRow[] }>('pods.rows', { nodeId: demo.id });
      const pod = rows.find((r) => r.status === 'Running' && r.restarts === 0)!;
      const follow = startCall(inspector, 'logs.follow', { nodeId: demo.id, uid: pod.uid, tailLines: 0 });
      let answered = false;
      void follow.result.then(() => (answered = true));
      await pollUntil('following', () => follow.progress[0] as Item | undefined);
      expect((follow.progress[0] as Item).status).toBe('following');
      started = follow;
      // tail 0: nothing old; the demo's containers print every second, so what comes was written since.
      await pollUntil('a new line or the follow ended', () => answered || batches(follow.progress).length > 0, (done) => done, { timeoutMs: 15_000 });
      first = batches(follow.progress)[0];
    }
    expect(first!.lines!.length).toBeGreaterThan(0);
    started!.cancel();
    expect(await started!.result).toMatchObject({ ok: false, error: { code: 'cancelled' } });
  }, 120_000);

  it('refuses to follow a previous instance, which writes no more', async () => {
    await expect(call('logs.follow', { nodeId: demo.id, uid: running.uid, previous: true })).rejects.toThrow(/no more lines|not restarted/);
  });

  // Last: it disconnects the demo node.
  it("ends with the reason when the node's link closes, rather than going quiet", async () => {
    const follow = startCall(inspector, 'logs.follow', { nodeId: demo.id, uid: running.uid, tailLines: 1 });
    await pollUntil('following', () => follow.progress[0]);
    await call('nodes.disconnect', { nodeId: demo.id });
    expect(await follow.result).toMatchObject({ ok: true, value: { status: 'ended', reason: 'ended', message: expect.stringContaining('connection closed') } });
    const after = await call<LogRead>('logs.read', { nodeId: demo.id, uid: running.uid });
    expect(after).toMatchObject({ status: 'unavailable', message: expect.stringContaining('not connected'), nextStep: expect.stringContaining('Connect the node') });
  });
});

describe('a follow on files of this machine', () => {
  const uid = '0a1b2c3d-0000-4000-8000-000000000002';
  const cri = (text: string) => `2026-11-27T10:00:00.000000000Z stdout F ${text}\n`;

  it('is stopped on the node when its caller cancels it or its window goes, and its lines go to its window only', async () => {
    const logsDir = mkdtempSync(join(tmpdir(), 'ns-logs-follow-'));
    const file = join(logsDir, `default_web_${uid}`, 'app', '0.log');
    mkdirSync(join(logsDir, `default_web_${uid}`, 'app'), { recursive: true });
    writeFileSync(file, cri('old'));
    // Each follow reads through its own access, so what each one still reads is seen apart.
    const polls: number[] = [];
    const service = createPodLogsService({
      node: () => ({ id: 'n', label: 'node', spec: { kind: 'unix', label: 'node', socketPath: '/x' } }) as unknown as NodeInfo,
      pod: async () => ({ namespace: 'default', name: 'web' }),
      logFiles: async () => {
        const local = localFileAccess();
        const mine = polls.push(0) - 1;
        return { access: { ...local, stat: (path: string) => (polls[mine]!++, local.stat(path)) }, logsDir, sudo: false };
      },
      crashLogs: () => undefined,
      podObject: async () => ({}),
      pollIntervalMs: 20,
      batchMs: 10,
    });
    const core = { handlers: service.handlers, subscribe: () => () => {} };
    const frames: ServerFrame[][] = [[], []];
    const windows = frames.map((sent) => openCallerConnection(core, (f) => sent.push(f)));
    const linesOf = (sent: ServerFrame[], id: number) => sent.flatMap((f) => (f.type === 'progress' && f.id === id && (f.progress as Item).status === 'lines' ? (f.progress as Item).lines! : []));
    const input = { nodeId: 'n', uid, tailLines: 0 };

    windows[0]!.receive({ type: 'request', id: 1, name: 'logs.follow', input });
    await pollUntil('window 1 following', () => frames[0]!.some((f) => f.type === 'progress' && f.id === 1));
    appendFileSync(file, cri('one'));
    await pollUntil('window 1 has the new line', () => linesOf(frames[0]!, 1), (l) => l.includes('one'));
    // The other window, connected all along, got none of it.
    expect(frames[1]).toEqual([]);

    // Cancelled: its reader stops (no more looks at the file), and nothing more comes to it.
    windows[0]!.receive({ type: 'cancel', id: 1 });
    await pollUntil('the follows over', () => service.following(), (n) => n === 0);
    const firstPolls = polls[0];
    const firstFrames = frames[0]!.length;
    windows[1]!.receive({ type: 'request', id: 1, name: 'logs.follow', input });
    await pollUntil('window 2 following', () => frames[1]!.some((f) => f.type === 'progress' && f.id === 1));
    appendFileSync(file, cri('two'));
    await pollUntil('window 2 has the newer line', () => linesOf(frames[1]!, 1), (l) => l.includes('two'));
    expect(polls[0]).toBe(firstPolls);
    expect(frames[0]!.length).toBe(firstFrames);

    // The window going away stops its follow too.
    windows[1]!.close();
    await pollUntil('the follows over', () => service.following(), (n) => n === 0);
    windows[0]!.close();
    service.close();
  });
});

describe('a read of more than the answer may carry', () => {
  it('keeps the newest lines and says how many older ones it left out', async () => {
    const logsDir = mkdtempSync(join(tmpdir(), 'ns-logs-bound-'));
    const uid = '0a1b2c3d-0000-4000-8000-000000000001';
    mkdirSync(join(logsDir, `default_web_${uid}`, 'app'), { recursive: true });
    const line = (i: number) => `2026-11-27T10:00:00.000000000Z stdout F ${String(i).padStart(3, '0')} ${'x'.repeat(95)}\n`;
    writeFileSync(join(logsDir, `default_web_${uid}`, 'app', '0.log'), Array.from({ length: 50 }, (_, i) => line(i)).join(''));
    const service = createPodLogsService({
      node: () => ({ id: 'n', label: 'node', spec: { kind: 'unix', label: 'node', socketPath: '/x' } }) as unknown as NodeInfo,
      pod: async () => ({ namespace: 'default', name: 'web' }),
      logFiles: async () => ({ access: localFileAccess(), logsDir, sudo: false }),
      crashLogs: () => undefined,
      podObject: async () => ({}),
      readCharsMax: 1000,
    });
    const r = ok(await service.handlers['logs.read']({ nodeId: 'n', uid, previous: false, tailLines: 100, timestamps: false }, detachedCall()));
    // 99 characters a line: 10 fit in 1000; the other 40 are counted, not sent.
    expect(r.lines).toHaveLength(10);
    expect(r.lines[0]!.startsWith('040 ')).toBe(true);
    expect(r.lines.at(-1)!.startsWith('049 ')).toBe(true);
    expect(r.omitted).toBe(40);
    service.close();
  });
});
