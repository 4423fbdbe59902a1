// The live pod history keeps the why: the app watching a simulated kubelet over a real UNIX socket, whose
// containers write CRI log files; a pod crash-loops while watched, and its history keeps the last lines of
// each instance that ended, which the Logs tab's "previous" still reads after the node removed the file.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LogRead, NodeInfo, PodHistoryView, PodRow } from '../contract';
import type { PodObject } from '../pod/pod-tree';
import { startSimulatedKubelet, type SimulatedKubelet } from '../sim/kubelet-server';
import { restartContainer } from '../sim/pod-changes';
import { containerStatuses, terminatedState } from '../sim/pod-status';
import { Prng } from '../sim/prng';
import { startSimContainerLogs, type SimContainerLogs } from '../sim/sim-container-logs';
import { pollUntil } from '../testing/poll-until';
import { createHost, type Host } from './host';
import { callerOf } from './testing/drive-host';

let dir: string;
let logsDir: string;
let sim: SimulatedKubelet;
let simLogs: SimContainerLogs;
let inspector: Host;
let call: ReturnType<typeof callerOf>;
let node: NodeInfo;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ns-live-crash-'));
  logsDir = join(dir, 'pods');
  sim = await startSimulatedKubelet({ socketPath: join(dir, 'kubelet.sock'), pods: 20, seed: 7 });
  simLogs = startSimContainerLogs(sim.store, { dir: logsDir, seed: 7, intervalMs: 0, linesPerTick: 3 });
  for (let i = 0; i < 4; i++) simLogs.tick();
  inspector = await createHost({ mode: 'browser', stateDir: join(dir, 'state'), demo: false, podLogsDir: logsDir });
  call = callerOf(inspector);
  const added = await call<NodeInfo>('nodes.add', { kind: 'unix', socketPath: join(dir, 'kubelet.sock'), label: 'crashy' });
  node = await pollUntil('the node live with its pods', async () => (await call<NodeInfo[]>('nodes.list')).find((n) => n.id === added.id), (n) => n?.state.phase === 'live' && n.podCount === 20) as NodeInfo;
}, 60_000);

afterAll(async () => {
  await inspector?.close();
  simLogs?.stop();
  await sim?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const ok = (r: LogRead) => {
  if (r.status !== 'ok') throw new Error(`expected lines, got: ${r.message} ${r.nextStep}`);
  return r;
};
const history = (uid: string) => call<PodHistoryView>('pods.history', { nodeId: node.id, uid });
const PANIC = 'panic: runtime error: invalid memory address or nil pointer dereference';

/** A running single-container pod: its uid and its container's name. */
function runningPod(): { uid: string; container: string } {
  for (const uid of sim.store.uids()) {
    const statuses = containerStatuses(sim.store.get(uid)!);
    if (statuses.length === 1 && (statuses[0]!.state as PodObject | undefined)?.running) return { uid, container: String(statuses[0]!.name) };
  }
  throw new Error('no running single-container pod');
}

let seed = 1;
/** The container ends and the kubelet counts a restart (running again or backing off): the instance that ended. */
function crash(uid: string): number {
  const before = Number(containerStatuses(sim.store.get(uid)!)[0]!.restartCount ?? 0);
  for (let tries = 0; tries < 100; tries++) {
    const next = restartContainer(sim.store.get(uid)!, new Prng(seed++), Date.now());
    if (!next || Number(containerStatuses(next)[0]!.restartCount) !== before + 1) continue;
    sim.store.apply({ op: 'update', pod: next });
    return before;
  }
  throw new Error('the container would not restart');
}

describe("a live node's pod history keeps the end of each instance that ended", () => {
  it('keeps the last lines of each crash of a crash-looping pod, readable after the node removed the file', async () => {
    // What had ended before the node was watched is not news: no pod's history starts with a kept log.
    const { rows } = await call<{ rows: PodRow[] }>('pods.rows', { nodeId: node.id });
    const restartedBefore = rows.find((r) => r.restarts > 0);
    expect(restartedBefore, 'a pod that restarted before the node was watched').toBeDefined();
    expect((await history(restartedBefore!.uid)).crashLogs).toBeUndefined();

    const { uid, container } = runningPod();
    const first = crash(uid);
    simLogs.tick();
    const second = crash(uid);
    const kept = await pollUntil('both instances kept in the history', () => history(uid), (h) => (h.crashLogs ?? []).length === 2);
    expect(kept.crashLogs!.map((l) => [l.container, l.instance, l.ended])).toEqual([
      [container, first, 'restarted'],
      [container, second, 'restarted'],
    ]);
    for (const l of kept.crashLogs!) {
      expect(l.missing).toBeUndefined();
      expect(l.lines).toBeGreaterThan(0);
      expect(l.reason).toMatch(/^(Error|OOMKilled)$/);
    }

    // The kept lines of the last crash are the end of that instance's file as the node has it now.
    const onNode = ok(await call<LogRead>('logs.read', { nodeId: node.id, uid, container, previous: true, tailLines: 1000 }));
    const lines = ok(await call<LogRead>('logs.read', { nodeId: node.id, uid, container, instance: second, tailLines: 1000 }));
    expect(lines.captured).toMatchObject({ by: 'history', instance: second });
    expect(lines.lines).toContain(PANIC);
    expect(lines.lines).toEqual(onNode.lines.slice(-lines.lines.length));
    const earlier = ok(await call<LogRead>('logs.read', { nodeId: node.id, uid, container, instance: first }));
    expect(earlier.lines).toContain(PANIC);

    // The node's garbage collection removes the ended instance's file: "previous" reads what the history kept.
    const meta = sim.store.get(uid)!.metadata as PodObject;
    rmSync(join(logsDir, `${String(meta.namespace)}_${String(meta.name)}_${uid}`, container, `${second}.log`));
    const previous = ok(await call<LogRead>('logs.read', { nodeId: node.id, uid, container, previous: true, tailLines: 1000 }));
    expect(previous.captured).toMatchObject({ by: 'history', instance: second, truncated: false });
    expect(previous.lines).toEqual(lines.lines);
  }, 60_000);

  it('keeps the end of the log of a pod that failed', async () => {
    const { uid, container } = runningPod();
    const pod = structuredClone(sim.store.get(uid)!);
    (pod.status as PodObject).phase = 'Failed';
    const status = containerStatuses(pod)[0]!;
    const started = Date.parse(String(((status.state as PodObject).running as PodObject).startedAt));
    status.state = terminatedState({ containerID: String(status.containerID), exitCode: 1, reason: 'Error', startedMs: started, finishedMs: Date.now() });
    sim.store.apply({ op: 'update', pod });
    const kept = await pollUntil('the failed instance kept', () => history(uid), (h) => (h.crashLogs ?? []).length === 1);
    expect(kept.crashLogs![0]).toMatchObject({ container, instance: Number(status.restartCount ?? 0), ended: 'ended', reason: 'Error', exitCode: 1 });
    expect(kept.crashLogs![0]!.lines).toBeGreaterThan(0);
  });

  it('says plainly when an instance was not kept', async () => {
    const { uid, container } = runningPod();
    const r = await call<LogRead>('logs.read', { nodeId: node.id, uid, container, instance: 999 });
    expect(r).toMatchObject({ status: 'unavailable', message: `crashy keeps no log of instance 999 of container ${container} of this pod.` });
  });
});
