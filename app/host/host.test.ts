import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, readdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ContractError, handleRequest, type JobProgress, type NodeInfo, type PodDeltas } from '../contract';
import { pollUntil } from '../testing/poll-until';
import type { AppEvent } from '../core/app-event';
import { podToNdjsonLine } from '../pod/kubectl-json';
import { PodGenerator } from '../sim/pod-generator';
import { callerOf, driveHost } from './testing/drive-host';
import { createHost, type Host } from './host';

// The inspector with its real demo node: a simulated kubelet on a private socket, reached by the
// same kubelet client a real node uses.
let inspector: Host;
let stateDir: string;
let events: AppEvent[];
let call: ReturnType<typeof callerOf>;

const demoInfo = async () => ((await call('nodes.list')) as NodeInfo[]).find((n) => n.simulated);
const liveWithPods = (info: NodeInfo | undefined): info is NodeInfo => info?.state.phase === 'live' && info.podCount > 0;

beforeAll(async () => {
  stateDir = mkdtempSync(join(tmpdir(), 'ns-inspector-'));
  inspector = await createHost({ mode: 'browser', stateDir });
  ({ events, call } = driveHost(inspector));
});
afterAll(() => inspector.close());

describe('inspector with the demo node', () => {
  it('starts the simulated demo node, labelled as such, and reaches live with a few hundred pods', async () => {
    const live = await pollUntil('the demo node live with pods', demoInfo, liveWithPods);
    expect(live.label).toMatch(/simulated/i);
    expect(live.podCount).toBeGreaterThanOrEqual(200);
    const snap = (await call('pods.rows', { nodeId: live.id })) as { seq: number; rows: { uid: string }[] };
    // Churn may add or delete a pod between the two answers.
    expect(Math.abs(snap.rows.length - live.podCount)).toBeLessThanOrEqual(3);
  });

  it('streams churn as per-frame pod batches and feed lines', async () => {
    const info = (await demoInfo())!;
    const before = events.length;
    await pollUntil('a change batch', () => events.slice(before).find((e) => e.name === 'podDeltas' && !(e.payload as PodDeltas).reset));
    const lines = await pollUntil(
      'feed lines',
      () => events.slice(before).flatMap((e) => (e.name === 'watchEvents' ? e.payload.lines : [])),
      (found) => found.length > 0,
    );
    expect(lines[0]).toMatchObject({ nodeId: info.id });
    expect(lines[0]!.change).not.toBe('');
  });

  it('opens a pod as kubectl JSON with its summary', async () => {
    const info = (await demoInfo())!;
    const { rows } = (await call('pods.rows', { nodeId: info.id })) as { rows: { uid: string; name: string }[] };
    const row = rows[0]!;
    const detail = (await call('pods.get', { nodeId: info.id, uid: row.uid })) as { json: string; summary: { name: string } };
    expect(JSON.parse(detail.json)).toMatchObject({ apiVersion: 'v1', kind: 'Pod', metadata: { uid: row.uid } });
    expect(detail.summary.name).toBe(row.name);
  });

  it('applies a field mask to the rows and refuses a bad one with its position', async () => {
    const info = (await demoInfo())!;
    const bad = (await call('nodes.setMask', { nodeId: info.id, mask: 'metadata.name, status.phaze' })) as { ok: boolean; position?: number };
    expect(bad.ok).toBe(false);
    expect(bad.position).toBeGreaterThan(10);
    const ok = (await call('nodes.setMask', { nodeId: info.id, mask: 'metadata.name,metadata.namespace' })) as { ok: boolean };
    expect(ok.ok).toBe(true);
    // Narrowing keeps the pods held (they hold all it selects) while the kubelet is asked again.
    const { rows } = (await call('pods.rows', { nodeId: info.id })) as { rows: { phase: string; name: string }[] };
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((r) => r.phase === '' && r.name !== '')).toBe(true);
    const masked = await pollUntil('the node live again with its mask', demoInfo, liveWithPods);
    expect(masked.maskPaths).toEqual(['metadata.name', 'metadata.namespace']);
    // Widening cannot be shown from pods fetched with less: they come again from the kubelet.
    await call('nodes.setMask', { nodeId: info.id, mask: '' });
    const again = await pollUntil(
      'whole pods again',
      async () => ((await call('pods.rows', { nodeId: info.id })) as { rows: { phase: string }[] }).rows,
      (r) => r.some((row) => row.phase !== ''),
    );
    expect(again.every((r) => r.phase !== '')).toBe(true);
    await pollUntil('the node live again', demoInfo, liveWithPods);
  });

  it('shows a masked pod without the fields left out, previews a mask, and says the kubelet ignored it', async () => {
    // A preview of no pods keeps nothing out: the demo node must have its pods first.
    const info = (await pollUntil('the demo node live with its pods', demoInfo, liveWithPods))!;
    const preview = (await call('mask.preview', { nodeId: info.id, mask: '@identity' })) as { ok: true; maskedBytes: number; fullBytes: number; maskedFields: number; fullFields: number; sample: { json: string } };
    expect(preview.ok).toBe(true);
    expect(preview.maskedBytes).toBeLessThan(preview.fullBytes);
    expect(preview.maskedFields).toBeLessThan(preview.fullFields);
    expect(Object.keys(JSON.parse(preview.sample.json)).sort()).toEqual(['apiVersion', 'kind', 'metadata', 'spec']);

    expect(await call('nodes.setMask', { nodeId: info.id, mask: 'metadata.name, @identity' })).toMatchObject({ ok: true });
    // The shipped kubelet the demo simulates ignores masks: the app says so, and masks the pods itself.
    const masked = (await pollUntil('the mask reported as not honoured', demoInfo, (n) => n?.maskHonoured === false && n.podCount > 0))!;
    expect(masked.mask).toBe('metadata.name,metadata.namespace,metadata.ownerReferences,metadata.uid,spec.nodeName');
    const { rows } = (await call('pods.rows', { nodeId: info.id })) as { rows: { uid: string; node: string }[] };
    // A pod on the node: the demo has unschedulable ones too, whose spec has no nodeName to keep.
    const scheduled = rows.find((r) => r.node !== '')!;
    const detail = (await call('pods.get', { nodeId: info.id, uid: scheduled.uid })) as { json: string; notSelected: string[] };
    const json = JSON.parse(detail.json) as Record<string, unknown>;
    expect(Object.keys(json).sort()).toEqual(['apiVersion', 'kind', 'metadata', 'spec']);
    expect(Object.keys(json.spec as object)).toEqual(['nodeName']);
    expect(detail.notSelected).toEqual(expect.arrayContaining(['phase', 'status', 'conditions', 'containers', 'labels']));
    expect(detail.notSelected).not.toContain('name');
    await call('nodes.setMask', { nodeId: info.id, mask: '' });
    await pollUntil('whole pods again', demoInfo, (n) => liveWithPods(n) && n.maskHonoured === null);
  });

  it('runs an export as a job: its caller sees how many pods are written of all, and cancelled it leaves no file', async () => {
    const info = (await demoInfo())!;
    const dir = mkdtempSync(join(tmpdir(), 'ns-export-job-'));
    const job = new AbortController();
    const seen: JobProgress[] = [];
    // Cancelled at its first progress: the file is open by then, its pods not yet all written.
    const progress = (p: unknown) => {
      seen.push(p as JobProgress);
      job.abort(new ContractError('cancelled', 'Its window cancelled it.'));
    };
    const result = await handleRequest(inspector.handlers, 'pods.export', { nodeId: info.id, uids: 'all', format: 'list', path: join(dir, 'pods.json') }, { signal: job.signal, caller: new AbortController().signal, progress });
    expect(result).toMatchObject({ ok: false, error: { code: 'cancelled' } });
    expect(seen).toEqual([{ done: 0, total: expect.any(Number) }]);
    expect(seen[0]!.total).toBeGreaterThan(0);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('exports the node as a kubectl List and as NDJSON, written atomically', async () => {
    const info = (await demoInfo())!;
    const dir = mkdtempSync(join(tmpdir(), 'ns-export-'));
    const list = (await call('pods.export', { nodeId: info.id, uids: 'all', format: 'list', path: join(dir, 'pods.json') })) as { count: number };
    const parsed = JSON.parse(readFileSync(join(dir, 'pods.json'), 'utf8'));
    expect(parsed.kind).toBe('List');
    expect(parsed.items).toHaveLength(list.count);

    const { rows } = (await call('pods.rows', { nodeId: info.id })) as { rows: { uid: string }[] };
    const picked = rows.slice(0, 3).map((r) => r.uid);
    await call('pods.export', { nodeId: info.id, uids: picked, format: 'ndjson', path: join(dir, 'pods.ndjson') });
    const lines = readFileSync(join(dir, 'pods.ndjson'), 'utf8').trimEnd().split('\n');
    expect(lines.map((l) => JSON.parse(l).metadata.uid)).toEqual(picked);
    // Each export has its provenance beside it, so the export itself stays exactly kubectl's output.
    const exported = ['pods.json', 'pods.json.nodescope.json', 'pods.ndjson', 'pods.ndjson.nodescope.json'];
    expect(readdirSync(dir).sort()).toEqual(exported);
    expect(JSON.parse(readFileSync(join(dir, 'pods.json.nodescope.json'), 'utf8'))).toMatchObject({ node: info.label, origin: 'nodescope ui', takenAt: expect.any(String) });

    const wrongKind = await handleRequest(inspector.handlers, 'pods.export', { nodeId: info.id, uids: 'all', format: 'list', path: join(dir, '.bashrc') });
    expect(wrongKind).toMatchObject({ ok: false, error: { code: 'invalid-input' } });
    const noFolder = await handleRequest(inspector.handlers, 'pods.export', { nodeId: info.id, uids: 'all', format: 'list', path: join(dir, 'missing', 'p.json') });
    expect(noFolder).toMatchObject({ ok: false, error: { code: 'export-failed', message: expect.stringContaining('folder does not exist') } });
    expect(readdirSync(dir).sort()).toEqual(exported);

    // Opened back, the export is an offline source: when and where it was taken, never live.
    const opened = (await call('sources.open', { paths: [join(dir, 'pods.json')] })) as { status: string; nodes: NodeInfo[] };
    const snapshot = opened.nodes[0]!;
    expect(snapshot.spec).toEqual({ kind: 'snapshot', file: join(dir, 'pods.json'), label: 'pods.json' });
    expect(snapshot.state).toEqual({ phase: 'offline', takenAt: expect.any(Number), origin: `${info.label} · pods.json` });
    expect(snapshot.podCount).toBe(list.count);
    // Exported again, it still says it came from that node at that time, through the file.
    await call('pods.export', { nodeId: snapshot.id, uids: 'all', format: 'list', path: join(dir, 'again.json') });
    const again = JSON.parse(readFileSync(join(dir, 'again.json.nodescope.json'), 'utf8'));
    expect(again).toMatchObject({ node: info.label, origin: `nodescope ui, from the file ${join(dir, 'pods.json')}` });
    expect(Date.parse(again.takenAt)).toBe(snapshot.state.phase === 'offline' ? snapshot.state.takenAt : NaN);
    const bad = await handleRequest(inspector.handlers, 'sources.open', { paths: [join(dir, 'pods.json.nodescope.json')] });
    expect(bad).toMatchObject({ ok: false, error: { code: 'invalid-input', message: expect.stringContaining('sidecar') } });
    await call('nodes.remove', { nodeId: snapshot.id });
  });

  it('records the live node to a file that opens as a recording with a time axis and each pod\'s history', async () => {
    const info = await pollUntil('the demo node live with pods', demoInfo, liveWithPods);
    const dir = mkdtempSync(join(tmpdir(), 'ns-record-'));
    const path = join(dir, 'demo.recording.ndjson');
    // Private to the user under the usual umask: pods carry secrets in env, as exports do.
    const umask = process.umask(0o022);
    await call('recording.start', { nodeId: info.id, path }).finally(() => process.umask(umask));
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect((await demoInfo())!.recordingTo).toBe(path);
    await expect(call('recording.start', { nodeId: info.id, path: join(dir, 'other.recording') })).rejects.toThrow(/being recorded already/);
    const from = events.length;
    await pollUntil('two churn changes', () => events.slice(from).filter((e) => e.name === 'podDeltas' && !(e.payload as PodDeltas).reset).length, (n) => n >= 2);
    const stopped = (await call('recording.stop', { nodeId: info.id })) as { path: string; events: number };
    expect(stopped.path).toBe(path);
    expect(stopped.events).toBeGreaterThan(0);
    expect((await demoInfo())!.recordingTo).toBeUndefined();

    const opened = (await call('sources.open', { paths: [path] })) as { nodes: NodeInfo[] };
    const recording = opened.nodes[0]!;
    expect(recording.spec.kind).toBe('recording');
    const timeline = recording.state.phase === 'offline' ? recording.state.timeline : undefined;
    expect(timeline).toBeDefined();
    expect(timeline!.end).toBeGreaterThan(timeline!.start);
    expect(recording.state).toMatchObject({ origin: `${info.label} · demo.recording.ndjson` });
    // At its start the recording holds the node's set as it was when recording began.
    const atStart = (await call('sources.setTime', { nodeId: recording.id, at: timeline!.start })) as NodeInfo;
    expect(atStart.podCount).toBeGreaterThanOrEqual(200);
    const { rows } = (await call('pods.rows', { nodeId: recording.id })) as { rows: { uid: string }[] };
    const history = (await call('pods.history', { nodeId: recording.id, uid: rows[0]!.uid })) as { versions: { event: string; time: number }[] };
    expect(history.versions[0]).toEqual(expect.objectContaining({ event: 'LISTED', time: timeline!.start }));
    await call('nodes.remove', { nodeId: recording.id });
  });

  it('records where the page says only to a new .recording file, private to the user: never a profile, a file, a link or a pipe', async () => {
    const info = await pollUntil('the demo node live with pods', demoInfo, liveWithPods);
    const dir = mkdtempSync(join(tmpdir(), 'ns-record-where-'));
    const profile = join(dir, '.profile');
    const wrongKind = await handleRequest(inspector.handlers, 'recording.start', { nodeId: info.id, path: profile });
    expect(wrongKind).toMatchObject({ ok: false, error: { code: 'invalid-input', field: 'path', message: expect.stringContaining('.recording') } });
    expect(existsSync(profile)).toBe(false);
    const existing = join(dir, 'old.recording');
    writeFileSync(existing, 'keep me');
    const dangling = join(dir, 'dangling.recording');
    symlinkSync(join(dir, 'nowhere'), dangling);
    const pipe = join(dir, 'pipe.recording.ndjson');
    execFileSync('mkfifo', [pipe]);
    for (const path of [existing, dangling, pipe]) {
      expect(await handleRequest(inspector.handlers, 'recording.start', { nodeId: info.id, path })).toMatchObject({ ok: false, error: { code: 'export-failed' } });
    }
    expect(readFileSync(existing, 'utf8')).toBe('keep me');
    expect(existsSync(join(dir, 'nowhere'))).toBe(false);
    const path = join(dir, 'node.recording');
    expect(await call('recording.start', { nodeId: info.id, path })).toEqual({ status: 'recording', path });
    expect(statSync(path).mode & 0o777).toBe(0o600);
    await call('recording.stop', { nodeId: info.id });
  });

  it('asks for a path in browser mode instead of failing silently', async () => {
    const info = (await demoInfo())!;
    const result = await handleRequest(inspector.handlers, 'pods.export', { nodeId: info.id, uids: 'all', format: 'list' });
    expect(result).toMatchObject({ ok: false, error: { code: 'invalid-input', field: 'path' } });
  });

  it('names the path field when it is relative, so the dialog can highlight it', async () => {
    const info = (await demoInfo())!;
    const result = await handleRequest(inspector.handlers, 'pods.export', { nodeId: info.id, uids: 'all', format: 'list', path: 'pods.json' });
    expect(result).toMatchObject({ ok: false, error: { code: 'invalid-input', field: 'path', message: expect.stringContaining('absolute') } });
  });

  it('replaces an existing export only when the user agreed, keeping its permissions', async () => {
    const info = (await demoInfo())!;
    const path = join(mkdtempSync(join(tmpdir(), 'ns-export-')), 'pods.json');
    writeFileSync(path, 'keep me');
    chmodSync(path, 0o640);
    const asked = await handleRequest(inspector.handlers, 'pods.export', { nodeId: info.id, uids: 'all', format: 'list', path });
    expect(asked).toMatchObject({ ok: false, error: { code: 'file-exists', field: 'path' } });
    expect(readFileSync(path, 'utf8')).toBe('keep me');
    await call('pods.export', { nodeId: info.id, uids: 'all', format: 'list', path, replace: true });
    expect(JSON.parse(readFileSync(path, 'utf8')).kind).toBe('List');
    expect(statSync(path).mode & 0o777).toBe(0o640);
  });

  it('disconnects a node (no stale pods left showing) and connects it again', async () => {
    const info = (await demoInfo())!;
    await call('nodes.disconnect', { nodeId: info.id });
    expect((await demoInfo())!.state).toEqual({ phase: 'disconnected' });
    expect(((await call('pods.rows', { nodeId: info.id })) as { rows: unknown[] }).rows).toEqual([]);
    await call('nodes.connect', { nodeId: info.id });
    await pollUntil('the demo node live again with pods', demoInfo, liveWithPods);
  });

  it('removes the demo node and can start it again', async () => {
    const info = (await demoInfo())!;
    await call('nodes.remove', { nodeId: info.id });
    expect(await demoInfo()).toBeUndefined();
    expect(events.some((e) => e.name === 'nodeRemoved' && e.payload.nodeId === info.id)).toBe(true);
    const again = (await call('nodes.startDemo')) as NodeInfo;
    expect(again.simulated).toBe(true);
    await pollUntil('the restarted demo node live', demoInfo, (info) => info?.state.phase === 'live');
  });
});

describe('inspector demo starts', () => {
  it('starts one demo node when asked twice at once, and nothing of it runs on once removed', async () => {
    const solo = await createHost({ mode: 'browser', stateDir: mkdtempSync(join(tmpdir(), 'ns-inspector-demo-')), demo: false });
    const seen: AppEvent[] = [];
    solo.subscribe((e) => seen.push(e));
    try {
      const started = await Promise.all([handleRequest(solo.handlers, 'nodes.startDemo', {}), handleRequest(solo.handlers, 'nodes.startDemo', {})]);
      const ids = started.map((r) => (r as { ok: true; value: NodeInfo }).value.id);
      expect(ids[0]).toBe(ids[1]);
      const nodeId = ids[0]!;
      await pollUntil('demo churn reaching the UI', () => seen.find((e) => e.name === 'podDeltas' && !e.payload.reset));
      expect(await handleRequest(solo.handlers, 'nodes.remove', { nodeId })).toMatchObject({ ok: true });
      const removedAt = seen.length;
      // The demo churns 2 pods a second: a kubelet left running would be heard from within this.
      await new Promise((r) => setTimeout(r, 2000));
      const after = seen.slice(removedAt).filter((e) => e.name === 'podDeltas' || e.name === 'watchEvents' || e.name === 'nodeState');
      expect(after).toEqual([]);
    } finally {
      await solo.close();
    }
  });
});

describe('inspector with remembered nodes', () => {
  it('restores added nodes instead of the demo, and shows an unreachable one as an error with the next step', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ns-inspector-saved-'));
    const first = await createHost({ mode: 'electron', stateDir: dir, demo: false, pickSavePath: async () => null });
    const added = (await handleRequest(first.handlers, 'nodes.add', { host: '127.0.0.1', port: 1, user: 'nobody', label: 'closed port' })) as {
      ok: true;
      value: NodeInfo;
    };
    expect(added.value).toMatchObject({ label: 'closed port', simulated: false });
    const info = (await handleRequest(first.handlers, 'app.info', {})) as { ok: true; value: { mode: string; canPickFiles: boolean; version: string } };
    expect(info.value).toMatchObject({ mode: 'electron', canPickFiles: true });
    expect(info.value.version).toMatch(/^\d+\.\d+\.\d+/);
    await first.close();

    const second = await createHost({ mode: 'browser', stateDir: dir });
    try {
      const list = async () => ((await handleRequest(second.handlers, 'nodes.list', {})) as { ok: true; value: NodeInfo[] }).value;
      expect((await list()).map((n) => [n.label, n.simulated])).toEqual([['closed port', false]]);
      const state = await pollUntil(
        'an error or reconnecting state',
        async () => (await list())[0]!.state,
        (s) => s.phase === 'error' || s.phase === 'reconnecting',
      );
      expect(JSON.stringify(state)).toMatch(/refused|127\.0\.0\.1:1/i);
    } finally {
      await second.close();
    }
  });
});

describe('inspector with a native save dialog (Electron)', () => {
  it('exports only to the file the dialog returned, never to a path the page names', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ns-inspector-dialog-'));
    const chosen = join(dir, 'chosen.json');
    writeFileSync(chosen, 'replaced after the dialog asked');
    const suggested: string[] = [];
    const app = await createHost({
      mode: 'electron',
      stateDir: dir,
      defaultExportDir: dir,
      demo: true,
      pickSavePath: async (path) => (suggested.push(path), chosen),
    });
    try {
      const list = async () => ((await handleRequest(app.handlers, 'nodes.list', {})) as { ok: true; value: NodeInfo[] }).value;
      const demo = await pollUntil('the demo node live with pods', async () => (await list())[0], liveWithPods);
      const victim = join(dir, 'victim.json');
      writeFileSync(victim, 'precious');
      const fromPage = await handleRequest(app.handlers, 'pods.export', { nodeId: demo.id, uids: 'all', format: 'list', path: victim, replace: true });
      expect(fromPage).toMatchObject({ ok: false, error: { code: 'invalid-input', field: 'path' } });
      expect(readFileSync(victim, 'utf8')).toBe('precious');
      expect(suggested).toEqual([]);

      const saved = await handleRequest(app.handlers, 'pods.export', { nodeId: demo.id, uids: 'all', format: 'ndjson' });
      expect(saved).toMatchObject({ ok: true, value: { status: 'saved', path: chosen } });
      // The node and the time in the name, as every default export and recording name has (default-file-names.ts).
      expect(suggested).toHaveLength(1);
      expect(suggested[0]).toMatch(new RegExp(`^${dir}/Demo_node_simulated-\\d{4}-\\d\\d-\\d\\dT\\d{6}Z-pods\\.ndjson$`));
      expect(JSON.parse(readFileSync(chosen, 'utf8').split('\n')[0]!).kind).toBe('Pod');
    } finally {
      await app.close();
    }
  });
});

describe('inspector in Electron', () => {
  it('takes the recording file only from the save dialog, never a path from the page', async () => {
    const asked: string[] = [];
    const electron = await createHost({
      mode: 'electron',
      stateDir: mkdtempSync(join(tmpdir(), 'ns-electron-')),
      demo: false,
      pickSavePath: async (suggested) => (asked.push(suggested), null),
      openLink: () => ({ close: async () => {} }),
    });
    try {
      const call = callerOf(electron);
      const node = (await call('nodes.add', { host: 'node-1' })) as NodeInfo;
      const refused = await handleRequest(electron.handlers, 'recording.start', { nodeId: node.id, path: '/tmp/x.recording.ndjson' });
      expect(refused).toMatchObject({ ok: false, error: { code: 'invalid-input', message: expect.stringContaining('save dialog') } });
      expect(await call('recording.start', { nodeId: node.id })).toEqual({ status: 'cancelled' });
      expect(asked[0]).toMatch(/node-1-.*\.recording\.ndjson$/);
    } finally {
      await electron.close();
    }
  });

  it('opens only files the user chose (open dialog, a drop, the command line), never one the page names', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ns-electron-open-'));
    const generator = new PodGenerator({ seed: 4, nodeName: 'n' });
    const podFile = (name: string) => {
      const path = join(dir, name);
      writeFileSync(path, `${podToNdjsonLine(generator.existing(Date.now()))}\n`);
      return path;
    };
    const [picked, dropped, fromCli] = [podFile('picked.ndjson'), podFile('dropped.ndjson'), podFile('cli.ndjson')];
    // Not a pod file: the reader's error would show the page how it starts.
    const secret = join(dir, 'id_ed25519');
    writeFileSync(secret, 'TOP-SECRET-KEY-MATERIAL');
    const electron = await createHost({
      mode: 'electron',
      stateDir: mkdtempSync(join(tmpdir(), 'ns-electron-')),
      demo: false,
      files: [fromCli],
      pickOpenPaths: async () => [picked],
      openLink: () => ({ close: async () => {} }),
    });
    try {
      const call = callerOf(electron);
      for (const named of [secret, join(dir, 'sub', '..', 'id_ed25519'), picked, dropped]) {
        const refused = await handleRequest(electron.handlers, 'sources.open', { paths: [named] });
        expect(refused).toMatchObject({ ok: false, error: { code: 'invalid-input', field: 'paths', message: expect.stringContaining('open dialog') } });
        expect(JSON.stringify(refused)).not.toContain('TOP-SECRET');
      }
      const fromDialog = (await call('sources.open', {})) as { nodes: NodeInfo[] };
      expect(fromDialog.nodes.map((n) => n.spec)).toEqual([{ kind: 'snapshot', file: picked, label: 'picked.ndjson' }]);
      const fromDrop = await electron.openDropped([dropped]);
      expect(fromDrop.map((n) => n.podCount)).toEqual([1]);
      // Undo reopens a removed file source by its path: files the user chose may be named again.
      await call('nodes.remove', { nodeId: fromDialog.nodes[0]!.id });
      for (const again of [picked, dropped, fromCli]) expect(await call('sources.open', { paths: [again] })).toMatchObject({ status: 'opened' });
      expect(await handleRequest(electron.handlers, 'sources.open', { paths: [secret] })).toMatchObject({ ok: false, error: { field: 'paths' } });
    } finally {
      await electron.close();
    }
  });
});
