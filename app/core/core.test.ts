import { afterEach, describe, expect, it } from 'vitest';
import { handleRequest, type MaskPreview, type NodeInfo, type PodDetail, type PodHistoryView, type RequestName, type WorkloadMatrixView } from '../contract';
import type { NodeLinkEvents, NodeLinkRequest } from './node-link';
import { buildWorkloadMatrix, type WorkloadMatrix } from '../fleet/workload-matrix';
import { maskPreviewSteps } from './mask-preview';
import { parseFieldMask } from '../mask/field-mask';
import { BUILT_IN_PRESETS, type MaskPreset } from '../mask/mask-presets';
import { encodePod } from '../pod/encode';
import { streamPodsAsKubectl } from '../pod/kubectl-json';
import type { DecodedPod } from '../pod/pod-tree';
import { decodeStored, type PodBytes } from '../pod/stored-pod';
import { generatePods } from '../sim/pod-generator';
import { createCore, type Core } from './core';
import type { OfflineSource, PresetStore } from './core-types';
import { simulatedRecording } from './simulated-source';

const pod = (uid: string, phase: string, extra: Record<string, string> = {}): DecodedPod => ({
  pod: { metadata: { uid, name: `pod-${uid}`, namespace: 'default', labels: extra }, status: { phase } },
  unknownFields: [],
});

/** A hub over a hand-driven live source: the test plays the kubelet. */
function hubWithSource(options: { now?: () => number; sliceMs?: number } = {}) {
  let events: NodeLinkEvents | undefined;
  let closed = 0;
  const hub = createCore({
    openLink: (request) => {
      events = request.events;
      return { close: async () => void closed++ };
    },
    frameMs: 1,
    ...options,
  });
  const call = async <T,>(name: RequestName, input: unknown = {}): Promise<T> => {
    const result = await handleRequest(hub.handlers, name, input);
    if (!result.ok) throw new Error(result.error.message);
    return result.value as T;
  };
  return { hub, call, source: () => events!, closed: () => closed };
}

let open: Core[] = [];
afterEach(async () => {
  await Promise.all(open.map((h) => h.close()));
  open = [];
});

describe('hub', () => {
  it('keeps each pod\'s versions with their events and a one-line change, and shows any of them as the detail', async () => {
    let now = 1000;
    const { hub, call, source } = hubWithSource({ now: () => now });
    open.push(hub);
    const node = await call<NodeInfo>('nodes.add', { kind: 'unix', socketPath: '/run/pods.sock' });
    source().state({ phase: 'live', since: now });
    source().reset([pod('a', 'Pending'), pod('b', 'Running')]);
    now = 2000;
    source().change('MODIFIED', pod('a', 'Running'));
    now = 3000;
    source().change('MODIFIED', pod('a', 'Running', { team: 'blue' }));
    const history = await call<PodHistoryView>('pods.history', { nodeId: node.id, uid: 'a' });
    expect(history.versions.map((v) => [v.time, v.event, v.change])).toEqual([
      [1000, 'LISTED', 'listed (Pending)'],
      [2000, 'MODIFIED', 'status Pending → Running'],
      [3000, 'MODIFIED', 'label team=blue added'],
    ]);
    expect(history.trimmed).toBe(0);
    const first = await call<PodDetail>('pods.version', { nodeId: node.id, uid: 'a', version: history.versions[0]!.id });
    expect(first.summary.phase).toBe('Pending');
    expect(first.versionTime).toBe(1000);
    expect(JSON.parse(first.json)).toMatchObject({ kind: 'Pod', metadata: { uid: 'a' }, status: { phase: 'Pending' } });
  });

  it('a relist records only what changed, and pods missing from it as deleted; a deleted pod stays readable for the retention', async () => {
    let now = 0;
    const { hub, call, source } = hubWithSource({ now: () => now });
    open.push(hub);
    const node = await call<NodeInfo>('nodes.add', { host: 'n1' });
    source().reset([pod('a', 'Running'), pod('b', 'Running')]);
    now = 10;
    source().reset([pod('a', 'Running'), pod('c', 'Running')]);
    expect((await call<PodHistoryView>('pods.history', { nodeId: node.id, uid: 'a' })).versions).toHaveLength(1);
    const b = await call<PodHistoryView>('pods.history', { nodeId: node.id, uid: 'b' });
    expect(b.deleted).toBe(true);
    expect(b.versions.map((v) => v.event)).toEqual(['LISTED', 'DELETED']);
    const gone = await call<PodDetail>('pods.get', { nodeId: node.id, uid: 'b' });
    expect(gone.deletedAt).toBe(10);
    await call('history.setLimits', { perPod: 100, totalBytes: 1e8, deletedRetentionMs: 1000 });
    now = 1011;
    await expect(call('pods.history', { nodeId: node.id, uid: 'b' })).rejects.toThrow(/no history/);
    await expect(call('pods.get', { nodeId: node.id, uid: 'b' })).rejects.toThrow(/not on n1/);
  });

  it('says when history was trimmed, per pod and on the node', async () => {
    const { hub, call, source } = hubWithSource();
    open.push(hub);
    await call('history.setLimits', { perPod: 2, totalBytes: 1e8, deletedRetentionMs: 1000 });
    const node = await call<NodeInfo>('nodes.add', { host: 'n1' });
    source().reset([pod('a', 'Pending')]);
    for (const phase of ['Running', 'Failed', 'Succeeded', 'Unknown']) source().change('MODIFIED', pod('a', phase));
    const history = await call<PodHistoryView>('pods.history', { nodeId: node.id, uid: 'a' });
    expect(history.trimmed).toBe(2);
    expect(history.versions).toHaveLength(3);
    expect(history.versions[0]!.change).toBe('earliest version kept');
    expect(history.limits.perPod).toBe(2);
    const nodes = await call<NodeInfo[]>('nodes.list');
    expect(nodes[0]!.historyTrimmed).toBe(true);
  });

  it('opens a snapshot offline: never live, its time and origin on the node, pods readable, nothing to connect', async () => {
    const { hub, call, closed } = hubWithSource();
    open.push(hub);
    const info = hub.openOffline({ kind: 'snapshot', file: '/tmp/pods.json', takenAt: 5000, origin: 'worker-1 · pods.json', pods: [pod('a', 'Running')] });
    expect(info.state).toEqual({ phase: 'offline', takenAt: 5000, origin: 'worker-1 · pods.json' });
    expect(info.spec).toEqual({ kind: 'snapshot', file: '/tmp/pods.json' });
    expect(info.podCount).toBe(1);
    await call('nodes.connect', { nodeId: info.id });
    await call('nodes.disconnect', { nodeId: info.id });
    expect(closed()).toBe(0);
    const [after] = await call<NodeInfo[]>('nodes.list');
    expect(after!.state.phase).toBe('offline');
    expect((await call<PodDetail>('pods.get', { nodeId: info.id, uid: 'a' })).summary.phase).toBe('Running');
  });

  it('opens a snapshot with pods sharing a uid or without one as a live node shows them: the first of a uid, the others named as not shown', async () => {
    const { hub, call } = hubWithSource();
    open.push(hub);
    const twin = { ...pod('a', 'Pending'), pod: { ...pod('a', 'Pending').pod, metadata: { uid: 'a', name: 'twin', namespace: 'default' } } };
    const info = hub.openOffline({ kind: 'snapshot', file: '/tmp/pods.json', takenAt: 5000, origin: 'pods.json', pods: [pod('a', 'Running'), pod('', 'Running'), twin, pod('b', 'Running')] });
    expect(info.podCount).toBe(2);
    expect(info.state).toEqual({
      phase: 'offline',
      takenAt: 5000,
      origin: 'pods.json',
      leftOut: ['pod default/pod- has no metadata.uid; Nodescope follows pods by uid, so it is not shown', 'pod default/twin has uid a, the same as pod default/pod-a; only the first is shown'],
    });
    expect((await call<PodDetail>('pods.get', { nodeId: info.id, uid: 'a' })).summary.phase).toBe('Running');
  });

  it('moves a recording through time: the pod set at that instant, each pod\'s history up to then', async () => {
    const { hub, call } = hubWithSource();
    open.push(hub);
    const sets: Record<number, DecodedPod[]> = { 100: [pod('a', 'Pending')], 200: [pod('a', 'Running'), pod('b', 'Pending')], 300: [pod('b', 'Running')] };
    const recording: OfflineSource = {
      kind: 'recording',
      file: '/tmp/node.recording.ndjson',
      takenAt: 100,
      origin: 'worker-1 · node.recording.ndjson',
      start: 100,
      end: 300,
      initial: sets[100]!,
      events: [
        { time: 200, type: 'MODIFIED', pod: pod('a', 'Running') },
        { time: 200, type: 'ADDED', pod: pod('b', 'Pending') },
        { time: 300, type: 'DELETED', pod: pod('a', 'Running') },
        { time: 300, type: 'MODIFIED', pod: pod('b', 'Running') },
      ],
      podsAt: (t) => sets[t <= 100 ? 100 : t < 300 ? 200 : 300]!,
    };
    const info = hub.openOffline(recording);
    expect(info.state).toMatchObject({ phase: 'offline', timeline: { start: 100, end: 300, at: 300 } });
    expect(info.podCount).toBe(1);
    const moved = await call<NodeInfo>('sources.setTime', { nodeId: info.id, at: 250 });
    expect(moved.state).toMatchObject({ timeline: { at: 250 } });
    const rows = await call<{ rows: { uid: string; phase: string }[] }>('pods.rows', { nodeId: info.id });
    expect(rows.rows.map((r) => [r.uid, r.phase]).sort()).toEqual([
      ['a', 'Running'],
      ['b', 'Pending'],
    ]);
    const a = await call<PodHistoryView>('pods.history', { nodeId: info.id, uid: 'a' });
    expect(a.versions.map((v) => v.event)).toEqual(['LISTED', 'MODIFIED']);
    expect(a.deleted).toBe(false);
    expect((await call<NodeInfo>('sources.setTime', { nodeId: info.id, at: 99_999 })).state).toMatchObject({ timeline: { at: 300 } });
    await expect(call('sources.setTime', { nodeId: 'nope', at: 1 })).rejects.toThrow(/no node/);
  });

  it('refuses a time for a source that has no time axis', async () => {
    const { hub, call } = hubWithSource();
    open.push(hub);
    const node = await call<NodeInfo>('nodes.add', { host: 'n1' });
    await expect(call('sources.setTime', { nodeId: node.id, at: 1 })).rejects.toThrow(/not a recording/);
  });

  it('replays a recording of the simulator: the set at each instant, and pods that changed have their versions', async () => {
    const { hub, call } = hubWithSource();
    open.push(hub);
    const source = simulatedRecording({ pods: 40, changes: 200, everyMs: 1000, seed: 3, nodeName: 'w1', start: 1_000_000, file: '/tmp/w1.recording.ndjson' });
    const info = hub.openOffline(source);
    expect(info.podCount).toBe(source.podsAt(source.end).length);
    expect((await call<NodeInfo>('sources.setTime', { nodeId: info.id, at: source.start })).podCount).toBe(40);
    const modified = source.events.find((e) => e.type === 'MODIFIED')!;
    const uid = (modified.pod.pod.metadata as { uid: string }).uid;
    await call('sources.setTime', { nodeId: info.id, at: source.end });
    const history = await call<PodHistoryView>('pods.history', { nodeId: info.id, uid });
    expect(history.versions.map((v) => v.time)).toContain(modified.time);
    expect(history.versions.length).toBe(1 + source.events.filter((e) => (e.pod.pod.metadata as { uid: string }).uid === uid).length);
  });
});

describe('hub with a field mask', () => {
  /** A hand-driven source that remembers each link's request (the mask sent to the kubelet). */
  function hubWithLinks(presets?: PresetStore) {
    const requests: NodeLinkRequest[] = [];
    let closed = 0;
    const hub = createCore({
      openLink: (request) => {
        requests.push(request);
        return { close: async () => void closed++ };
      },
      frameMs: 1,
      ...(presets ? { presets } : {}),
    });
    open.push(hub);
    const call = async <T,>(name: RequestName, input: unknown = {}): Promise<T> => {
      const result = await handleRequest(hub.handlers, name, input);
      if (!result.ok) throw new Error(result.error.message);
      return result.value as T;
    };
    return { hub, call, requests, closed: () => closed };
  }

  const labelled = (uid: string, phase: string, labels: Record<string, string>, podIP?: string): DecodedPod => ({
    pod: { metadata: { uid, name: `pod-${uid}`, namespace: 'default', labels }, spec: { nodeName: 'worker-1' }, status: { phase, ...(podIP ? { podIP } : {}) } },
    unknownFields: [],
  });

  it('shows a snapshot, its history and its export through the mask: exactly the selected fields, nothing zero-filled', async () => {
    const { hub, call, requests } = hubWithLinks();
    const info = hub.openOffline({ kind: 'snapshot', file: '/tmp/pods.json', takenAt: 5000, origin: 'pods.json', pods: [labelled('a', 'Running', { app: 'x' }, '10.0.0.7')] });
    const set = await call<{ ok: boolean }>('nodes.setMask', { nodeId: info.id, mask: 'metadata.name,status.podIP' });
    expect(set.ok).toBe(true);
    // A file is not a node: a mask there changes what is shown, nothing is fetched.
    expect(requests).toHaveLength(0);
    const detail = await call<PodDetail>('pods.get', { nodeId: info.id, uid: 'a' });
    expect(JSON.parse(detail.json)).toEqual({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'pod-a' }, status: { podIP: '10.0.0.7' } });
    expect(detail.notSelected).toEqual(expect.arrayContaining(['phase', 'labels', 'node']));
    expect(detail.notSelected).not.toContain('podIP');
    const [version] = (await call<PodHistoryView>('pods.history', { nodeId: info.id, uid: 'a' })).versions;
    const old = await call<PodDetail>('pods.version', { nodeId: info.id, uid: 'a', version: version!.id });
    expect(JSON.parse(old.json)).toEqual(JSON.parse(detail.json));
    let exported = '';
    const mask = hub.fieldMask(info.id);
    streamPodsAsKubectl(await hub.shownPods(info.id, 'all'), (t) => (exported += t), { ndjson: true, ...(mask ? { mask } : {}) });
    expect(exported).toBe('{"apiVersion":"v1","kind":"Pod","metadata":{"name":"pod-a"},"status":{"podIP":"10.0.0.7"}}\n');
  });

  it('a recording\'s history reports no change in what the mask leaves out', async () => {
    const { hub, call } = hubWithLinks();
    const info = hub.openOffline({
      kind: 'recording',
      file: '/tmp/n.recording',
      takenAt: 100,
      origin: 'n.recording',
      start: 100,
      end: 200,
      initial: [labelled('a', 'Running', {})],
      events: [{ time: 200, type: 'MODIFIED', pod: labelled('a', 'Running', { team: 'blue' }) }],
      podsAt: (t) => [labelled('a', 'Running', t < 200 ? {} : { team: 'blue' })],
    });
    const changes = async () => (await call<PodHistoryView>('pods.history', { nodeId: info.id, uid: 'a' })).versions.map((v) => v.change);
    expect(await changes()).toEqual(['listed (Running)', 'label team=blue added']);
    await call('nodes.setMask', { nodeId: info.id, mask: 'metadata.name,status.phase' });
    expect(await changes()).toEqual(['listed (Running)', 'updated']);
  });

  it('sends the mask to the kubelet, says whether it was honoured, and asks again when the mask changes', async () => {
    const { call, requests, closed } = hubWithLinks();
    const node = await call<NodeInfo>('nodes.add', { kind: 'unix', socketPath: '/run/pods.sock' });
    expect(requests[0]!.mask).toBeUndefined();
    requests[0]!.events.state({ phase: 'live', since: 1 });
    requests[0]!.events.reset([labelled('a', 'Running', { app: 'x' })]);

    // A preset is kept written out, so changing the preset later does not change the node.
    await call('nodes.setMask', { nodeId: node.id, mask: '@identity' });
    expect(closed()).toBe(1);
    await expect.poll(() => requests.length).toBe(2);
    expect([...requests[1]!.mask!.paths]).toEqual(['metadata.name', 'metadata.namespace', 'metadata.ownerReferences', 'metadata.uid', 'spec.nodeName']);
    const [listed] = await call<NodeInfo[]>('nodes.list');
    expect(listed!.mask).toBe('metadata.name,metadata.namespace,metadata.ownerReferences,metadata.uid,spec.nodeName');
    expect(listed!.maskHonoured).toBeNull();
    // Narrowing: the pods held hold all it selects, so they stay shown while the kubelet is asked again.
    expect((await call<{ rows: unknown[] }>('pods.rows', { nodeId: node.id })).rows).toHaveLength(1);
    requests[1]!.events.maskHonoured!(false);
    expect((await call<NodeInfo[]>('nodes.list'))[0]!.maskHonoured).toBe(false);

    // Widening: pods fetched with less cannot be shown through it; they are not shown until fetched again.
    await call('nodes.setMask', { nodeId: node.id, mask: 'metadata.name,status.phase' });
    await expect.poll(() => requests.length).toBe(3);
    expect((await call<{ rows: unknown[] }>('pods.rows', { nodeId: node.id })).rows).toHaveLength(0);
    // A report from the link the new mask replaced is not this one's.
    requests[1]!.events.maskHonoured!(true);
    expect((await call<NodeInfo[]>('nodes.list'))[0]!.maskHonoured).toBeNull();
  });

  it('saves presets only through the Node side\'s store, and expands the saved ones', async () => {
    const bare = hubWithLinks();
    expect((await bare.call<MaskPreset[]>('mask.presets')).map((p) => p.name)).toEqual(BUILT_IN_PRESETS.map((p) => p.name));
    await expect(bare.call('mask.savePreset', { name: 'mine', mask: 'status.phase' })).rejects.toThrow(/cannot be saved here/);

    let saved: MaskPreset[] = [];
    const store: PresetStore = {
      all: () => [...BUILT_IN_PRESETS, ...saved],
      save: async (name, check) => {
        if (!check.ok) throw new Error(check.error);
        saved = [{ name, paths: check.paths, description: 'saved', builtIn: false }];
        return store.all();
      },
      remove: async () => store.all(),
    };
    const { call } = hubWithLinks(store);
    await call('mask.savePreset', { name: 'mine', mask: 'status.phase,@identity' });
    expect(await call('mask.validate', { mask: '@mine' })).toMatchObject({ ok: true, paths: expect.arrayContaining(['status.phase', 'metadata.uid']) });
    expect(await call('mask.validate', { mask: '@nope' })).toMatchObject({ ok: false });
  });
});

describe('hub: the workload matrix over selected sources', () => {
  const dsPod = (uid: string, node: string, image: string): DecodedPod => ({
    pod: {
      metadata: { uid, name: `agent-${uid}`, namespace: 'kube-system', ownerReferences: [{ kind: 'DaemonSet', name: 'agent', controller: true, uid: 'ds' }] },
      spec: { nodeName: node, containers: [{ name: 'agent', image }] },
      status: { phase: 'Running', containerStatuses: [{ name: 'agent', ready: true, restartCount: 0 }] },
    },
    unknownFields: [],
  });

  it('compares live nodes and a snapshot by label, marks drift, and leaves a node that is not live unknown, never empty', async () => {
    const links = new Map<string, NodeLinkEvents>();
    const hub = createCore({ openLink: (request) => (links.set(request.nodeId, request.events), { close: async () => undefined }), frameMs: 1 });
    open.push(hub);
    const call = async <T,>(name: RequestName, input: unknown = {}): Promise<T> => {
      const result = await handleRequest(hub.handlers, name, input);
      if (!result.ok) throw new Error(result.error.message);
      return result.value as T;
    };
    const [a, b, c] = await call<NodeInfo[]>('nodes.addMany', {
      nodes: ['a', 'b', 'c'].map((n) => ({ kind: 'unix', socketPath: `/run/${n}.sock`, label: `worker-${n}`, group: 'workers' })),
    });
    for (const [node, image] of [[a!, 'agent:1'], [b!, 'agent:2']] as const) {
      links.get(node.id)!.state({ phase: 'live', since: 1 });
      links.get(node.id)!.reset([dsPod(node.id, node.label, image)]);
    }
    links.get(c!.id)!.state({ phase: 'reconnecting', attempt: 2, retryAt: 5, cause: 'connection refused' });
    const file = hub.openOffline({ kind: 'snapshot', file: '/tmp/worker-a.json', takenAt: 1, origin: 'worker-a', pods: [dsPod('s', 'worker-a', 'agent:1')] });

    const m = await call<WorkloadMatrixView>('fleet.matrix', { nodeIds: [a!.id, b!.id, c!.id, file.id] });
    expect(m.sources).toEqual([{ id: 'worker-a' }, { id: 'worker-b' }, { id: 'worker-c', error: 'not live (reconnecting)' }, { id: 'worker-a.json' }]);
    expect(m.rows.map((r) => [r.key, r.cells.map((cell) => cell?.pods ?? null)])).toEqual([['kube-system/DaemonSet/agent', [1, 1, null, 1]]]);
    expect(m.rows[0]!.drift).toEqual([{ kind: 'image', container: 'agent', values: { 'worker-a': 'agent:1', 'worker-b': 'agent:2', 'worker-a.json': 'agent:1' } }]);
    expect(m.drifted).toBe(1);
    expect((await call<NodeInfo[]>('nodes.list')).filter((n) => n.spec.kind === 'unix').map((n) => n.spec.kind === 'unix' && n.spec.group)).toEqual(['workers', 'workers', 'workers']);
  });
});

describe('hub: whole-node work goes in time slices', () => {
  /** A busy node's pods as a live node holds them: their bytes. */
  const bigNode = (count: number): PodBytes[] =>
    generatePods(count, { seed: 30, nodeName: 'big-node', nowMs: Date.UTC(2026, 0, 2, 3, 4, 5) }).map((pod) => ({ bytes: encodePod(pod) }));
  const uidOf = (pod: PodBytes) => String((decodeStored(pod).pod.metadata as Record<string, unknown>).uid);

  /** A hub whose whole-node work gives the event loop a turn after every pod, over a live node of `pods`. */
  async function busyHub(pods: PodBytes[]) {
    const h = hubWithSource({ sliceMs: 0 });
    open.push(h.hub);
    const node = await h.call<NodeInfo>('nodes.add', { kind: 'unix', socketPath: '/run/big.sock' });
    h.source().state({ phase: 'live', since: 1 });
    const listed = new Promise<void>((resolve) => h.hub.subscribe((e) => e.name === 'podDeltas' && e.payload.reset && resolve()));
    h.source().reset(pods);
    await listed;
    return { ...h, node };
  }

  it('takes the watch\'s pod changes and answers other requests while a mask preview of a big node is under way', async () => {
    const pods = bigNode(400);
    const { hub, call, source, node } = await busyHub(pods);
    const order: string[] = [];
    const preview = call<Extract<MaskPreview, { ok: true }>>('mask.preview', { nodeId: node.id, mask: '@identity' }).then((p) => (order.push('preview'), p));
    const gone = uidOf(pods[0]!);
    const batchOut = new Promise<void>((resolve) => hub.subscribe((e) => e.name === 'podDeltas' && e.payload.removals.includes(gone) && resolve()));
    source().change('DELETED', pods[0]!);
    await batchOut;
    order.push('pod batch');
    const rows = await call<{ rows: unknown[] }>('pods.rows', { nodeId: node.id });
    order.push('pods.rows');
    const result = await preview;

    expect(order).toEqual(['pod batch', 'pods.rows', 'preview']);
    expect(rows.rows).toHaveLength(399);
    // The preview is of the pods as they were when it was asked for, as if worked out at once.
    let steps = maskPreviewSteps(pods, parseFieldMask(BUILT_IN_PRESETS.find((p) => p.name === 'identity')!.paths.join(',')), decodeStored(pods[0]!).pod, '');
    let step = steps.next();
    while (!step.done) step = steps.next();
    expect(result).toEqual(step.value);
    expect(result.pods).toBe(400);
  });

  it('stops a preview its caller cancels, at its next turn: its progress ends there; another caller\'s preview goes on', async () => {
    const { hub, node } = await busyHub(bigNode(200));
    const cancelled = new AbortController();
    const progress: number[] = [];
    let atCancel = -1;
    const first = handleRequest(hub.handlers, 'mask.preview', { nodeId: node.id, mask: 'metadata.name' }, {
      signal: cancelled.signal,
      caller: new AbortController().signal,
      progress: (p) => {
        progress.push((p as { done: number }).done);
        if (progress.length === 3) {
          cancelled.abort();
          atCancel = progress.length;
        }
      },
    });
    const other = handleRequest(hub.handlers, 'mask.preview', { nodeId: node.id, mask: 'metadata.name,status.phase' });
    expect(await first).toMatchObject({ ok: false, error: { code: 'cancelled' } });
    // Settled: the work is over, and it reported nothing after it was cancelled, nor reached the last pod.
    expect(progress).toHaveLength(atCancel);
    expect(progress.at(-1)).toBeLessThan(200);
    expect(await other).toMatchObject({ ok: true, value: { ok: true, pods: 200 } });
  });

  it('stops whole-node work under way when the hub closes', async () => {
    const { hub, node } = await busyHub(bigNode(200));
    const preview = handleRequest(hub.handlers, 'mask.preview', { nodeId: node.id, mask: 'metadata.name' });
    const matrix = handleRequest(hub.handlers, 'fleet.matrix', { nodeIds: [node.id] });
    await hub.close();
    expect(await preview).toMatchObject({ ok: false, error: { code: 'cancelled' } });
    expect(await matrix).toMatchObject({ ok: false, error: { code: 'cancelled' } });
  });

  it('builds the fleet matrix of a big node while the watch\'s changes go out and other requests are answered; asked again meanwhile, that build answers', async () => {
    const pods = bigNode(300);
    const { hub, call, source, node } = await busyHub(pods);
    const shownNow = async () => buildWorkloadMatrix([{ id: node.label, pods: [...(await hub.shownPods(node.id, 'all'))] }]);
    const before = await shownNow();
    const order: string[] = [];
    const first = call<WorkloadMatrix>('fleet.matrix', { nodeIds: [node.id] }).then((m) => (order.push('matrix'), m));
    const gone = uidOf(pods[0]!);
    const batchOut = new Promise<void>((resolve) => hub.subscribe((e) => e.name === 'podDeltas' && e.payload.removals.includes(gone) && resolve()));
    source().change('DELETED', pods[0]!);
    await batchOut;
    order.push('pod batch');
    const again = call<WorkloadMatrix>('fleet.matrix', { nodeIds: [node.id] });
    await call('pods.rows', { nodeId: node.id });
    order.push('pods.rows');

    expect(await first).toEqual(before);
    expect(order).toEqual(['pod batch', 'pods.rows', 'matrix']);
    // Asked while the build was under way: that build answers, as of when it started.
    expect(await again).toEqual(before);
    // Once it is done, the next request builds the node as it is now.
    const after = await call<WorkloadMatrix>('fleet.matrix', { nodeIds: [node.id] });
    expect(after).toEqual(await shownNow());
    expect(after).not.toEqual(before);
  });

  it('rebuilds the matrix from each pod as it is now: a changed pod, a deleted one, a new mask', async () => {
    const pods = bigNode(120);
    const { hub, call, source, node } = await busyHub(pods);
    const matrix = () => call<WorkloadMatrix>('fleet.matrix', { nodeIds: [node.id] });
    const shownNow = async () => buildWorkloadMatrix([{ id: node.label, pods: [...(await hub.shownPods(node.id, 'all'))] }]);
    const batch = () => new Promise<void>((resolve) => hub.subscribe((e) => e.name === 'podDeltas' && resolve()));

    const first = await matrix();
    // A DaemonSet pod is set up anew and fails; another pod is deleted.
    const changed = pods.findIndex((p) => /DaemonSet/.test(JSON.stringify((decodeStored(p).pod.metadata as Record<string, unknown>).ownerReferences ?? '')));
    const tree = structuredClone(decodeStored(pods[changed]!).pod);
    const spec = tree.spec as { containers: { image: string }[] };
    spec.containers[0]!.image = 'registry.example.internal/changed:9';
    (tree.status as Record<string, unknown>).phase = 'Failed';
    const out = batch();
    source().change('MODIFIED', { bytes: encodePod(tree) });
    source().change('DELETED', pods[1]!);
    await out;
    const rebuilt = await matrix();
    expect(rebuilt).toEqual(await shownNow());
    expect(rebuilt).not.toEqual(first);

    // A new mask: every pod is read again through it (no container statuses: no ready containers, no restarts).
    await call('nodes.setMask', { nodeId: node.id, mask: 'metadata,status.phase' });
    source().state({ phase: 'live', since: 2 });
    const masked = await matrix();
    expect(masked).toEqual(await shownNow());
    expect(masked.rows.map((r) => r.cells[0]?.pods)).toEqual(rebuilt.rows.map((r) => r.cells[0]?.pods));
    expect(masked.rows.map((r) => r.cells[0]?.restarts)).not.toEqual(rebuilt.rows.map((r) => r.cells[0]?.restarts));
  });
});
