import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NodeContextSchema, type JournalFollowEnd, type NodeContextRead, type NodeInfo, type RequestResult } from '../contract';
import { startSimJournal, type SimJournal } from '../sim/sim-journal';
import { startSimulatedKubelet, type SimulatedKubelet } from '../sim/kubelet-server';
import { createPrivateSocketDir, type PrivateSocketDir } from '../ssh/private-socket-dir';
import { pollUntil } from '../testing/poll-until';
import { processesWithArg } from '../testing/processes-with-arg';
import { createHost, type Host } from './host';
import { callerOf, driveHost, startCall } from './testing/drive-host';

// node.info through a real host: a Pods API socket on this machine (the simulated kubelet) is read here,
// with the same reader `nodescope node unix:SOCKET` runs; the demo node has no node of its own to ask.
let inspector: Host;
let call: ReturnType<typeof callerOf>;
let dir: PrivateSocketDir;
let sim: SimulatedKubelet;
let journal: SimJournal;

beforeAll(async () => {
  dir = createPrivateSocketDir();
  sim = await startSimulatedKubelet({ socketPath: dir.socketPath, pods: 5, seed: 3 });
  // The node's journal is the simulated kubelet's, read with stand-ins for journalctl and systemctl.
  journal = startSimJournal({ dir: mkdtempSync(join(tmpdir(), 'ns-journal-')), lines: 60 });
  inspector = await createHost({ mode: 'browser', stateDir: mkdtempSync(join(tmpdir(), 'ns-node-info-')), demo: true, nodePrograms: journal.programs });
  ({ call } = driveHost(inspector));
});
afterAll(async () => {
  await inspector.close();
  await sim.stop();
  dir.remove();
});

const live = (label: string, find: (n: NodeInfo) => boolean) =>
  pollUntil(label, async () => (await call<NodeInfo[]>('nodes.list')).find(find), (n) => n?.state.phase === 'live' && n.podCount > 0);

describe('node.info', () => {
  it("reads a unix-socket node's context here, each part read or saying why not", async () => {
    const node = await call<NodeInfo>('nodes.add', { kind: 'unix', socketPath: dir.socketPath });
    await live('the socket node live', (n) => n.id === node.id);
    const r = await call<NodeContextRead>('node.info', { nodeId: node.id });
    if (r.status !== 'read') throw new Error(`expected the context, got: ${r.message}`);
    // The shape `nodescope node -o json` prints, every part present.
    expect(NodeContextSchema.strict().parse(r.context)).toEqual(r.context);
    for (const [name, part] of Object.entries(r.context)) {
      if ('error' in part) expect(part.error, name).toMatch(/\S/);
      else expect(part.from, name).toMatch(/\S/);
    }
  });

  it('answers a disconnected node as unavailable, saying to connect it', async () => {
    const node = await call<NodeInfo>('nodes.add', { kind: 'unix', socketPath: dir.socketPath, label: 'later' });
    await call('nodes.disconnect', { nodeId: node.id });
    await pollUntil('the node disconnected', async () => (await call<NodeInfo[]>('nodes.list')).find((n) => n.id === node.id), (n) => n?.state.phase === 'disconnected');
    expect(await call<NodeContextRead>('node.info', { nodeId: node.id })).toEqual({
      status: 'unavailable',
      message: 'later is not connected, so its node cannot be asked.',
      nextStep: 'Connect the node, then open Node info again.',
    });
  });

  it('answers the demo node as not available for its kind of source', async () => {
    const demo = await live('the demo node live', (n) => n.simulated);
    const r = await call<NodeContextRead>('node.info', { nodeId: demo!.id });
    expect(r).toMatchObject({ status: 'unavailable', message: expect.stringContaining('not available for this kind of source') });
  });
});

describe('node.journalFollow', () => {
  /** The processes following the simulated journal (the stand-in execs `tail -F FILE`). */
  const following = () => processesWithArg(journal.file);
  const journalLines = (progress: unknown[]) => progress.flatMap((p) => (p as { lines: { message: string; identifier?: string }[] }).lines);

  it("streams the kubelet unit's journal, its last lines then each new one, until its caller cancels it", async () => {
    const node = await call<NodeInfo>('nodes.add', { kind: 'unix', socketPath: dir.socketPath, label: 'journal' });
    await live('the socket node live', (n) => n.id === node.id);
    const read = await call<NodeContextRead>('node.info', { nodeId: node.id });
    if (read.status !== 'read' || !('value' in read.context.journal)) throw new Error('expected the journal read');
    const tail = read.context.journal.value.lines;
    expect(read.context.journal.value.unit.unit).toBe('kubelet');

    const follow = startCall(inspector, 'node.journalFollow', { nodeId: node.id, unit: 'kubelet' });
    // First the lines the panel shows, so following leaves no gap after them.
    await pollUntil('the tail', () => journalLines(follow.progress).length >= tail.length);
    expect(journalLines(follow.progress).slice(0, tail.length)).toEqual(tail);
    journal.write('I1128 a line written while followed');
    await pollUntil('the new line', () => journalLines(follow.progress).some((l) => l.message === 'I1128 a line written while followed'));
    expect(journalLines(follow.progress).at(-1)).toMatchObject({ identifier: 'kubelet', pid: 812, message: 'I1128 a line written while followed' });

    // Cancelled (the panel closed): it answers as cancelled, and no line comes after.
    follow.cancel();
    const r: RequestResult<JournalFollowEnd> = (await follow.result) as RequestResult<JournalFollowEnd>;
    expect(r).toMatchObject({ ok: false, error: { code: 'cancelled' } });
    const seen = follow.progress.length;
    journal.write('I1128 a line after the follow');
    const after = startCall(inspector, 'node.journalFollow', { nodeId: node.id, unit: 'kubelet' });
    await pollUntil('the later line, on a new follow', () => journalLines(after.progress).some((l) => l.message === 'I1128 a line after the follow'));
    after.cancel();
    await after.result;
    expect(follow.progress.length).toBe(seen);
  });

  it("ends by itself when the node's connection closes, saying so, and the command stops", async () => {
    const node = (await call<NodeInfo[]>('nodes.list')).find((n) => n.label === 'journal')!;
    await call('nodes.connect', { nodeId: node.id });
    await live('the node live again', (n) => n.id === node.id);
    const follow = startCall(inspector, 'node.journalFollow', { nodeId: node.id, unit: 'kubelet' });
    await pollUntil('the follow running', () => journalLines(follow.progress).length > 0);
    await call('nodes.disconnect', { nodeId: node.id });
    expect(await follow.result).toEqual({
      ok: true,
      value: { status: 'ended', message: `Following the journal stopped: the node's connection closed (\`${journal.programs.journalctl} -u kubelet -f -n 50 --no-pager -o short-iso\`).`, nextStep: 'Turn Follow on again once the node is live.' },
    });
    await pollUntil('the journal no longer followed on the node', () => following().length === 0);
    await call('nodes.connect', { nodeId: node.id });
  });

  it('follows only a kubelet unit Nodescope knows, never a name from elsewhere', async () => {
    const node = (await call<NodeInfo[]>('nodes.list')).find((n) => n.label === 'journal')!;
    const r = startCall(inspector, 'node.journalFollow', { nodeId: node.id, unit: 'kubelet; touch /tmp/x' });
    expect(await r.result).toMatchObject({ ok: false, error: { code: 'invalid-input' } });
  });

  it('answers the demo node as unavailable, as node.info does', async () => {
    const demo = await live('the demo node live', (n) => n.simulated);
    const r = startCall(inspector, 'node.journalFollow', { nodeId: demo!.id, unit: 'kubelet' });
    expect(await r.result).toMatchObject({ ok: true, value: { status: 'unavailable', message: expect.stringContaining('not available for this kind of source') } });
  });
});
