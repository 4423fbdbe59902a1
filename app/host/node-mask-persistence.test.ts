import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { NodeInfo, PodRow } from '../contract';
import { startSimulatedKubelet, type SimulatedKubelet } from '../sim/kubelet-server';
import { createHost, type Host } from './host';
import { openKubeletNodeLink } from './kubelet-node-link';
import { savedNodesPath } from './saved-nodes';
import { pollUntil } from '../testing/poll-until';
import { driveHost } from './testing/drive-host';

// Saves fail on demand, to see what a full disk or a read-only folder leaves behind.
const failSaves = vi.hoisted(() => ({ on: false }));
vi.mock('../fs/atomic-file', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../fs/atomic-file')>();
  return {
    ...actual,
    writeFileAtomic: (...args: Parameters<typeof actual.writeFileAtomic>) =>
      failSaves.on ? Promise.reject(Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' })) : actual.writeFileAtomic(...args),
  };
});

// Added nodes reach a simulated kubelet on this machine instead of going over SSH: what is under
// test is what the inspector remembers about a node, not how it gets there.
const PODS = 25;
let kubeletDir: string;
let kubelet: SimulatedKubelet;
const open: Host[] = [];

beforeAll(async () => {
  kubeletDir = mkdtempSync(join(tmpdir(), 'ns-mask-kubelet-'));
  kubelet = await startSimulatedKubelet({ socketPath: join(kubeletDir, 'pods.sock'), pods: PODS, seed: 7 });
});
afterAll(async () => {
  await kubelet?.stop();
  await rm(kubeletDir, { recursive: true, force: true });
});
afterEach(async () => {
  failSaves.on = false;
  vi.restoreAllMocks();
  for (const inspector of open.splice(0)) await inspector.close();
});

/** An inspector on `stateDir`, as the app starts one, and the events it sends from then on. */
async function start(stateDir: string) {
  const inspector = await createHost({
    mode: 'browser',
    stateDir,
    demo: false,
    openLink: (request) => openKubeletNodeLink(request, { localSocket: join(kubeletDir, 'pods.sock') }),
  });
  open.push(inspector);
  const { events, call } = driveHost(inspector);
  const nodes = () => call<NodeInfo[]>('nodes.list');
  const node = async (label: string) => (await nodes()).find((n) => n.label === label);
  const live = (label: string) =>
    pollUntil(`${label} live with its ${PODS} pods`, () => node(label), (info): info is NodeInfo => info?.state.phase === 'live' && info.podCount === PODS);
  const rows = async (label: string) => (await call<{ rows: PodRow[] }>('pods.rows', { nodeId: (await node(label))!.id })).rows;
  const stop = async () => {
    open.splice(open.indexOf(inspector), 1);
    await inspector.close();
  };
  return { inspector, events, call, nodes, node, live, rows, stop };
}

const MASK = 'metadata.name,metadata.namespace';
// Under MASK a row keeps its name and loses what the mask leaves out.
const masked = (r: PodRow) => r.name !== '' && r.phase === '';
const stateDir = () => mkdtempSync(join(tmpdir(), 'ns-mask-state-'));

describe('a node keeps its field mask across restarts', () => {
  it('comes back with the mask it had, its pods masked from the first rows the UI is sent', async () => {
    const dir = stateDir();
    const first = await start(dir);
    await first.call('nodes.add', { host: 'worker-1', label: 'worker-1' });
    await first.live('worker-1');
    expect(await first.call('nodes.setMask', { nodeId: (await first.node('worker-1'))!.id, mask: ` ${MASK} ` })).toMatchObject({ ok: true });
    await first.stop();

    const second = await start(dir);
    // What the renderer reads at start and puts in the mask box.
    expect((await second.node('worker-1'))!.mask).toBe(MASK);
    const info = await second.live('worker-1');
    expect(info.mask).toBe(MASK);
    const rows = await second.rows('worker-1');
    expect(rows).toHaveLength(PODS);
    expect(rows.every(masked)).toBe(true);
    // Not one batch went out unmasked before the mask was applied.
    const batches = second.events.flatMap((e) => (e.name === 'podDeltas' && e.payload.nodeId === info.id ? [e.payload] : []));
    expect(batches.flatMap((b) => b.upserts)).not.toHaveLength(0);
    expect(batches.every((b) => b.upserts.every(masked))).toBe(true);
    // The pod opened and exported is masked too, not only its row.
    const detail = await second.call<{ json: string }>('pods.get', { nodeId: info.id, uid: kubelet.store.uids()[0] });
    const pod = JSON.parse(detail.json);
    expect(pod.metadata.name).not.toBe('');
    expect(pod.metadata.uid).toBeUndefined();
    expect(pod.status?.phase).toBeUndefined();
  });

  it('comes back without a mask once it was cleared', async () => {
    const dir = stateDir();
    const first = await start(dir);
    const added = await first.call<NodeInfo>('nodes.add', { host: 'worker-1', label: 'worker-1' });
    await first.call('nodes.setMask', { nodeId: added.id, mask: MASK });
    await first.call('nodes.setMask', { nodeId: added.id, mask: '' });
    await first.stop();

    const second = await start(dir);
    await second.live('worker-1');
    expect((await second.node('worker-1'))!.mask).toBe('');
    expect((await second.rows('worker-1')).every((r) => r.phase !== '')).toBe(true);
  });

  it('loads a node list saved before masks were, every node unmasked', async () => {
    const dir = stateDir();
    writeFileSync(savedNodesPath(dir), JSON.stringify({ version: 1, nodes: [{ host: 'worker-1', label: 'old' }] }, null, 2));
    const app = await start(dir);
    const info = await app.live('old');
    expect(info).toMatchObject({ mask: '', simulated: false, spec: { host: 'worker-1' } });
    expect((await app.rows('old')).every((r) => r.phase !== '')).toBe(true);
  });

  it('loads a node whose saved mask no longer parses without it, says so on the node, and waits for the user', async () => {
    const dir = stateDir();
    writeFileSync(
      savedNodesPath(dir),
      JSON.stringify({
        version: 1,
        nodes: [
          { host: 'worker-1', label: 'edited', mask: 'metadata.name,status.phaze' },
          { host: 'worker-2', label: 'fine', mask: MASK },
        ],
      }),
    );
    const app = await start(dir);
    // The app starts, the other node goes live with its mask.
    await app.live('fine');
    expect((await app.rows('fine')).every(masked)).toBe(true);
    const edited = (await app.node('edited'))!;
    expect(edited.mask).toBe('');
    expect(edited.state).toEqual({ phase: 'error', cause: expect.stringContaining('saved field mask "metadata.name,status.phaze" no longer parses'), nextStep: expect.stringMatching(/set the mask again.*or connect/) });
    expect(edited.state.phase === 'error' && edited.state.cause).toMatch(/phaze/);
    expect(edited.podCount).toBe(0);

    // Setting a mask is the user's answer: the node connects with it, and it is remembered.
    expect(await app.call('nodes.setMask', { nodeId: edited.id, mask: 'metadata.name' })).toMatchObject({ ok: true });
    await app.live('edited');
    expect((await app.rows('edited')).every((r) => r.name !== '' && r.namespace === '')).toBe(true);
    await app.stop();
    const again = await start(dir);
    expect((await again.node('edited'))!.mask).toBe('metadata.name');
    await again.live('edited');
  });

  it('keeps a saved mask it cannot use, as written, when another node is saved, until the user decides', async () => {
    const dir = stateDir();
    const unusable = 'metadata.name,status.phaze';
    writeFileSync(savedNodesPath(dir), JSON.stringify({ version: 1, nodes: [{ host: 'worker-1', label: 'edited', mask: unusable }] }));
    const first = await start(dir);
    await first.call('nodes.add', { host: 'worker-2', label: 'other' });
    const saved = () => JSON.parse(readFileSync(savedNodesPath(dir), 'utf8')).nodes as { label: string; mask?: unknown }[];
    expect(saved().find((n) => n.label === 'edited')!.mask).toBe(unusable);
    await first.stop();

    // Still held back after a restart, not connected unmasked.
    const second = await start(dir);
    expect((await second.node('edited'))!.state).toMatchObject({ phase: 'error', cause: expect.stringContaining('phaze') });
    // Connecting is the user's answer: from then on the node is saved without that mask.
    await second.call('nodes.connect', { nodeId: (await second.node('edited'))!.id });
    await second.live('edited');
    await pollUntil('the list saved without the unusable mask', () => saved().find((n) => n.label === 'edited'), (n) => n !== undefined && n.mask === undefined);
  });

  it('connects a node whose saved mask no longer parses unmasked when the user says connect', async () => {
    const dir = stateDir();
    writeFileSync(savedNodesPath(dir), JSON.stringify({ version: 1, nodes: [{ host: 'worker-1', label: 'edited', mask: { paths: 'metadata.name' } }] }));
    const app = await start(dir);
    const edited = (await app.node('edited'))!;
    expect(edited.state).toMatchObject({ phase: 'error', cause: expect.stringContaining('is not text') });
    await app.call('nodes.connect', { nodeId: edited.id });
    await app.live('edited');
    expect((await app.rows('edited')).every((r) => r.phase !== '')).toBe(true);
  });

  it('keeps the saved list as it was when a mask cannot be saved, says why, and saves the mask with the next change', async () => {
    const dir = stateDir();
    const app = await start(dir);
    const added = await app.call<NodeInfo>('nodes.add', { host: 'worker-1', label: 'worker-1' });
    const before = readFileSync(savedNodesPath(dir), 'utf8');
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    failSaves.on = true;
    expect(await app.call('nodes.setMask', { nodeId: added.id, mask: MASK })).toMatchObject({ ok: true });
    expect(logged).toHaveBeenCalledWith(expect.stringMatching(/could not remember the node list: ENOSPC/));
    expect(readFileSync(savedNodesPath(dir), 'utf8')).toBe(before);
    // The mask is applied all the same; only remembering it waits.
    expect((await app.node('worker-1'))!.mask).toBe(MASK);

    failSaves.on = false;
    await app.call('nodes.add', { host: 'worker-2', label: 'worker-2' });
    await app.stop();
    const again = await start(dir);
    expect((await again.nodes()).map((n) => [n.label, n.mask])).toEqual([
      ['worker-1', MASK],
      ['worker-2', ''],
    ]);
  });
});
