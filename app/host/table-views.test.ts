import { mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { NodeInfo, PodFieldColumn, PodFields, TableViews } from '../contract';
import { startSimulatedKubelet, type SimulatedKubelet } from '../sim/kubelet-server';
import { createHost, type Host } from './host';
import { openKubeletNodeLink } from './kubelet-node-link';
import { pollUntil } from '../testing/poll-until';
import { driveHost } from './testing/drive-host';
import { tableViewsPath } from './table-views-store';

let kubeletDir: string;
let kubelet: SimulatedKubelet;
const open: Host[] = [];

beforeAll(async () => {
  kubeletDir = mkdtempSync(join(tmpdir(), 'ns-views-kubelet-'));
  kubelet = await startSimulatedKubelet({ socketPath: join(kubeletDir, 'pods.sock'), pods: 12, seed: 7 });
});
afterAll(async () => {
  await kubelet?.stop();
  await rm(kubeletDir, { recursive: true, force: true });
});
afterEach(async () => {
  for (const inspector of open.splice(0)) await inspector.close();
});

async function start(stateDir: string) {
  const inspector = await createHost({ mode: 'browser', stateDir, demo: false, openLink: (request) => openKubeletNodeLink(request, { localSocket: join(kubeletDir, 'pods.sock') }) });
  open.push(inspector);
  return { inspector, ...driveHost(inspector) };
}

const VIEWS: TableViews = {
  layouts: {
    node: { columns: [{ id: 'name' }, { id: 'cpu', shown: true }, { id: 'isStatic', shown: false }, { id: 'field:spec.priorityClassName' }] },
    fleet: { columns: [{ id: 'node' }, { id: 'name' }, { id: 'podIP', shown: false }] },
  },
  saved: [{ name: 'Crash loops', filter: 'phase:CrashLoopBackOff', sort: { key: 'restarts', descending: true }, columns: { columns: [{ id: 'name' }] } }],
};

describe('the table views the UI keeps', () => {
  it('are remembered across a restart, in a file private to the user', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ns-views-state-'));
    const first = await start(dir);
    expect(await first.call('ui.tableViews')).toEqual({ layouts: {}, saved: [] });
    expect(await first.call('ui.setTableViews', VIEWS)).toEqual(VIEWS);
    await first.inspector.close();
    expect(statSync(tableViewsPath(dir)).mode & 0o077).toBe(0);

    const second = await start(dir);
    expect(await second.call('ui.tableViews')).toEqual(VIEWS);
  });

  it('never writes over a file it could not read, and says what to do', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ns-views-state-'));
    writeFileSync(tableViewsPath(dir), '{ not json');
    const app = await start(dir);
    expect(await app.call('ui.tableViews')).toEqual({ layouts: {}, saved: [] });
    await expect(app.call('ui.setTableViews', VIEWS)).rejects.toThrow(/not saved while .*table-views\.json cannot be read/);
    const notices = await app.call<{ message: string; nextStep: string }[]>('notices.list');
    expect(notices.find((n) => n.message.includes('table columns'))?.nextStep).toMatch(/Repair or remove .*table-views\.json/);
  });

  it("answers any field's values for the pods asked, absent where a pod or the node's mask has none", async () => {
    const app = await start(mkdtempSync(join(tmpdir(), 'ns-views-state-')));
    const node = await app.call<NodeInfo>('nodes.add', { host: 'worker-1', label: 'worker-1' });
    await pollUntil('node live', () => app.call<NodeInfo[]>('nodes.list'), (list) => list[0]?.state.phase === 'live' && list[0].podCount === 12);
    const uids = kubelet.store.uids().slice(0, 3);
    const ask = () => app.call<PodFields>('pods.fields', { nodeId: node.id, uids: [...uids, 'gone'], paths: ['metadata.uid', 'spec.containers.name', 'spec.noSuchField'] });
    const { values } = await ask();
    expect(Object.keys(values).sort()).toEqual([...uids].sort());
    for (const uid of uids) {
      expect(values[uid]![0]).toEqual([uid]);
      expect(values[uid]![1]!.length).toBeGreaterThan(0);
      expect(values[uid]![2]).toBeNull();
    }
    await app.call('nodes.setMask', { nodeId: node.id, mask: 'metadata.uid,metadata.name' });
    await pollUntil('masked values', ask, (r) => uids.every((uid) => r.values[uid]?.[1] === null && r.values[uid]?.[0]?.[0] === uid));
  });

  it("answers one field's values on every pod of the node, to sort the table by that field's column", async () => {
    const app = await start(mkdtempSync(join(tmpdir(), 'ns-views-state-')));
    const node = await app.call<NodeInfo>('nodes.add', { host: 'worker-1', label: 'worker-1' });
    await pollUntil('node live', () => app.call<NodeInfo[]>('nodes.list'), (list) => list[0]?.state.phase === 'live' && list[0].podCount === 12);
    const column = (path: string) => app.call<PodFieldColumn>('pods.fieldColumn', { nodeId: node.id, path });
    const { values } = await column('metadata.uid');
    expect(Object.keys(values).sort()).toEqual([...kubelet.store.uids()].sort());
    for (const [uid, value] of Object.entries(values)) expect(value).toEqual([uid]);
    expect(Object.values((await column('spec.noSuchField')).values).every((v) => v === null)).toBe(true);
  });
});
