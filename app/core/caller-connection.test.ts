import { afterEach, describe, expect, it } from 'vitest';
import { NodeContextSchema, type CallContext, type NodeInfo, type RequestHandlers, type ServerFrame } from '../contract';
import { createCallClient } from '../contract/call-client';
import { generatePods } from '../sim/pod-generator';
import { openCallerConnection, type BridgeCore } from './caller-connection';
import { createCore, type Core } from './core';

let hubs: Core[] = [];
afterEach(async () => {
  await Promise.all(hubs.map((h) => h.close()));
  hubs = [];
});

/**
 * A hub over a file of `pods` pods whose whole-node work gives the event loop a turn after every pod, and
 * what its mask previews did: each job's outcome once it is over (its work stopped), and its progress.
 */
function hubWithFile(pods: number) {
  const hub = createCore({ openLink: () => ({ close: async () => {} }), sliceMs: 0, frameMs: 1 });
  hubs.push(hub);
  const node: NodeInfo = hub.openOffline({
    kind: 'snapshot',
    file: '/tmp/big.json',
    takenAt: 1,
    origin: 'big-node',
    pods: generatePods(pods, { seed: 31, nodeName: 'big-node', nowMs: Date.UTC(2026, 0, 2) }).map((pod) => ({ pod, unknownFields: [] })),
  });
  const jobs: { progress: number; outcome?: string }[] = [];
  const preview: RequestHandlers['mask.preview'] = (input, call: CallContext<{ done: number; total: number }>) => {
    const job: (typeof jobs)[number] = { progress: 0 };
    jobs.push(job);
    const work = Promise.resolve(hub.handlers['mask.preview'](input, { ...call, progress: (p) => (job.progress++, call.progress(p)) }));
    work.then(
      () => (job.outcome = 'done'),
      (err: { code?: string }) => (job.outcome = err.code ?? 'failed'),
    );
    return work;
  };
  const core: BridgeCore = { handlers: { ...hub.handlers, 'mask.preview': preview }, subscribe: (l) => hub.subscribe(l) };
  return { hub, node, core, jobs };
}

/** A window's connection and the frames it was sent. */
function windowOf(core: BridgeCore) {
  const frames: ServerFrame[] = [];
  const connection = openCallerConnection(core, (frame) => frames.push(frame), () => {});
  const of = (id: number, type: ServerFrame['type']) => frames.filter((f) => f.type === type && 'id' in f && f.id === id);
  return { connection, frames, of };
}

describe('a window\'s calls', () => {
  it('sends a job\'s progress to its caller only, then its answer', async () => {
    const { core, node } = hubWithFile(50);
    const a = windowOf(core);
    const b = windowOf(core);
    a.connection.receive({ type: 'request', id: 1, name: 'mask.preview', input: { nodeId: node.id, mask: 'metadata.name' } });
    await expect.poll(() => a.of(1, 'response')).toHaveLength(1);
    expect(a.of(1, 'response')[0]).toMatchObject({ result: { ok: true, value: { ok: true, pods: 50 } } });
    const progress = a.of(1, 'progress').map((f) => (f as { progress: { done: number; total: number } }).progress);
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.every((p) => p.total === 50 && p.done <= 50)).toBe(true);
    expect(a.frames.indexOf(a.of(1, 'response')[0]!)).toBeGreaterThan(a.frames.indexOf(a.of(1, 'progress').at(-1)!));
    expect(b.frames.filter((f) => f.type !== 'event')).toEqual([]);
  });

  it('stops a job its caller cancels: its work ends there, unanswered; another window\'s goes on', async () => {
    const { core, node, jobs } = hubWithFile(300);
    const a = windowOf(core);
    const b = windowOf(core);
    a.connection.receive({ type: 'request', id: 7, name: 'mask.preview', input: { nodeId: node.id, mask: 'metadata.name' } });
    b.connection.receive({ type: 'request', id: 7, name: 'mask.preview', input: { nodeId: node.id, mask: 'metadata.name' } });
    await expect.poll(() => a.of(7, 'progress').length).toBeGreaterThan(0);
    expect(a.connection.receive({ type: 'cancel', id: 7 })).toBe(true);
    await expect.poll(() => jobs[0]!.outcome).toBe('cancelled');
    const sentAtEnd = a.of(7, 'progress').length;
    // Over before its last pod; nothing more came, not even an answer; the other window's job went on.
    expect(jobs[0]!.progress).toBeLessThan(300);
    await expect.poll(() => b.of(7, 'response')).toHaveLength(1);
    expect(b.of(7, 'response')[0]).toMatchObject({ result: { ok: true, value: { pods: 300 } } });
    expect(a.of(7, 'progress')).toHaveLength(sentAtEnd);
    expect(a.of(7, 'response')).toEqual([]);
  });

  it('stops every job of a window that goes away', async () => {
    const { core, node, jobs } = hubWithFile(3000);
    const a = windowOf(core);
    a.connection.receive({ type: 'request', id: 1, name: 'mask.preview', input: { nodeId: node.id, mask: 'metadata.name' } });
    a.connection.receive({ type: 'request', id: 2, name: 'mask.preview', input: { nodeId: node.id, mask: 'status' } });
    await expect.poll(() => a.of(2, 'progress').length).toBeGreaterThan(0);
    a.connection.close();
    await expect.poll(() => jobs.map((j) => j.outcome)).toEqual(['cancelled', 'cancelled']);
    expect(a.frames.filter((f) => f.type === 'response')).toEqual([]);
  });

  it('starts nothing a window asks for once it went away', async () => {
    const { core, node, jobs } = hubWithFile(10);
    const a = windowOf(core);
    a.connection.close();
    expect(a.connection.receive({ type: 'request', id: 1, name: 'mask.preview', input: { nodeId: node.id, mask: 'status' } })).toBe(true);
    expect(a.connection.receive({ type: 'request', id: 2, name: 'pods.watch', input: { nodeId: node.id } })).toBe(true);
    expect(jobs).toEqual([]);
    // Its calls would not be answered anyway, but a subscription would have gone on for nobody.
    expect(a.frames).toEqual([]);
  });

  it('refuses what is no call frame, and answers a bad request naming the field', async () => {
    const { core } = hubWithFile(1);
    const a = windowOf(core);
    expect(a.connection.receive({ type: 'exec', id: 1 })).toBe(false);
    expect(a.connection.receive('{"type":"request"}')).toBe(false);
    a.connection.receive({ type: 'request', id: 3, name: 'mask.preview', input: { nodeId: '' } });
    await expect.poll(() => a.of(3, 'response')).toHaveLength(1);
    expect(JSON.stringify(a.of(3, 'response')[0])).toMatch(/invalid-input.*nodeId/);
  });
});

describe('an answer the transport cannot carry', () => {
  it('is answered with an internal error saying so, and logged', async () => {
    // A part whose value the contract leaves open (a kubelet's config) holding what JSON cannot write.
    const unread = Object.fromEntries(Object.keys(NodeContextSchema.shape).map((part) => [part, { error: 'not read' }]));
    const context = { ...unread, config: { from: 'configz', value: { big: 1n } } };
    const core: BridgeCore = { handlers: { 'node.info': () => ({ status: 'read', context }) as never }, subscribe: () => () => {} };
    const frames: ServerFrame[] = [];
    const logged: string[] = [];
    // As the browser-mode socket sends: JSON.
    const connection = openCallerConnection(core, (frame) => frames.push(JSON.parse(JSON.stringify(frame)) as ServerFrame), (m) => logged.push(m));
    connection.receive({ type: 'request', id: 7, name: 'node.info', input: { nodeId: 'n1' } });
    await expect.poll(() => frames).toHaveLength(1);
    expect(frames[0]).toMatchObject({ type: 'response', id: 7, result: { ok: false, error: { code: 'internal', message: expect.stringMatching(/could not send the answer to node\.info: .*BigInt/) } } });
    expect(logged).toEqual([expect.stringMatching(/could not send the answer to node\.info/)]);
  });
});

describe('the caller\'s Bridge over a connection', () => {
  it('hands it progress as it comes, and cancelling its signal stops the job in the core', async () => {
    const { core, node, jobs } = hubWithFile(3000);
    let connection: ReturnType<typeof openCallerConnection> | undefined;
    const client = createCallClient((frame) => (connection!.receive(structuredClone(frame)), true));
    connection = openCallerConnection(core, (frame) => client.receive(structuredClone(frame)), () => {});
    const whole = await client.bridge.request('mask.preview', { nodeId: node.id, mask: 'metadata.name' }, { onProgress: () => {} });
    expect(whole).toMatchObject({ ok: true, pods: 3000 });

    // Cancelled at its first progress, between two of its slices: a poll for progress could come after a
    // preview this small had already finished.
    const shown = new AbortController();
    const seen: number[] = [];
    const preview = client.bridge.request('mask.preview', { nodeId: node.id, mask: 'status' }, {
      signal: shown.signal,
      onProgress: (p) => {
        seen.push(p.done);
        shown.abort();
      },
    });
    await expect(preview).rejects.toMatchObject({ code: 'cancelled' });
    expect(seen.length).toBeGreaterThan(0);
    await expect.poll(() => jobs[1]!.outcome).toBe('cancelled');
  });
});

describe('a window that never ends its calls', () => {
  it('is refused more than its limit of open calls with an error saying so, and served again once some end', async () => {
    const { core, node } = hubWithFile(1);
    const frames: ServerFrame[] = [];
    const { receive } = openCallerConnection(core, (frame) => frames.push(frame), () => {}, { maxOpenCalls: 2 });
    const watch = (id: number) => receive({ type: 'request', id, name: 'pods.watch', input: { nodeId: node.id } });
    const answer = (id: number) => frames.find((f) => f.type === 'response' && f.id === id);
    watch(1);
    watch(2);
    watch(3);
    await expect.poll(() => answer(3)).toMatchObject({ result: { ok: false, error: { code: 'too-many-calls', message: expect.stringMatching(/2 calls/), nextStep: expect.stringMatching(/Reload/) } } });
    receive({ type: 'cancel', id: 1 });
    watch(4);
    await new Promise((resolve) => setImmediate(resolve));
    expect(answer(4)).toBeUndefined();
    expect(answer(2)).toBeUndefined();
  });
});
