import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { NodeInfo, Notice } from '../contract';
import { createHost, type Host } from './host';
import type { NodeLink } from '../core/node-link';
import { savedNodesPath } from './saved-nodes';
import { driveHost } from './testing/drive-host';

// Saves and the setting aside of an unreadable list fail on demand: a full disk, a read-only folder.
const failing = vi.hoisted(() => ({ saves: false, setAside: false as boolean | 'gone' }));
vi.mock('../fs/atomic-file', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../fs/atomic-file')>();
  return {
    ...actual,
    writeFileAtomic: (...args: Parameters<typeof actual.writeFileAtomic>) =>
      failing.saves ? Promise.reject(Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' })) : actual.writeFileAtomic(...args),
  };
});
vi.mock('./saved-nodes', async (importOriginal) => {
  const actual = await importOriginal<typeof import('./saved-nodes')>();
  return {
    ...actual,
    setAsideSavedNodes: (...args: Parameters<typeof actual.setAsideSavedNodes>) =>
      failing.setAside === 'gone'
        ? Promise.reject(Object.assign(new Error('ENOENT: no such file or directory, link'), { code: 'ENOENT' }))
        : failing.setAside
          ? Promise.reject(new Error('EROFS: read-only file system, rename'))
          : actual.setAsideSavedNodes(...args),
  };
});

const open: Host[] = [];
afterEach(async () => {
  failing.saves = false;
  failing.setAside = false;
  vi.restoreAllMocks();
  for (const inspector of open.splice(0)) await inspector.close();
});

/** What a node link does here does not matter: these tests are about the app's own files. */
const idleLink = (): NodeLink => ({ close: async () => {} });

async function start(stateDir: string) {
  const inspector = await createHost({ mode: 'browser', stateDir, demo: false, openLink: idleLink });
  open.push(inspector);
  const { events, call } = driveHost(inspector);
  const notices = () => call<Notice[]>('notices.list');
  return { events, call, notices };
}

const stateDir = () => mkdtempSync(join(tmpdir(), 'ns-notices-'));

describe('the app tells the user about its own files', () => {
  it('starts despite an unreadable node list, keeps it whole aside and says where', async () => {
    const dir = stateDir();
    writeFileSync(savedNodesPath(dir), '{"version":1,"nodes":[{"host":');
    const app = await start(dir);
    expect(await app.call<NodeInfo[]>('nodes.list')).toEqual([]);

    const [notice, ...more] = await app.notices();
    expect(more).toEqual([]);
    const kept = readdirSync(dir).find((f) => f.startsWith('nodes.json.unreadable-'));
    expect(kept).toBeDefined();
    expect(readFileSync(join(dir, kept!), 'utf8')).toBe('{"version":1,"nodes":[{"host":');
    expect(notice!.message).toContain('is not a valid Nodescope node list: it is not JSON');
    expect(notice!.message).toContain(join(dir, kept!));
    expect(notice!.nextStep).toMatch(/Add the nodes again/);

    // New nodes are remembered in a fresh list; the kept file is left alone.
    await app.call('nodes.add', { host: 'worker-1' });
    expect(JSON.parse(readFileSync(savedNodesPath(dir), 'utf8')).nodes).toEqual([{ host: 'worker-1' }]);
    expect(readFileSync(join(dir, kept!), 'utf8')).toBe('{"version":1,"nodes":[{"host":');
  });

  it('starts at once when nodes.json is a FIFO, and says the list was not a regular file', async () => {
    const dir = stateDir();
    execFileSync('mkfifo', [savedNodesPath(dir)]);
    const app = await start(dir);
    expect(await app.call<NodeInfo[]>('nodes.list')).toEqual([]);
    const [notice] = await app.notices();
    expect(notice!.message).toContain(`${savedNodesPath(dir)} is a FIFO (named pipe), not a regular file`);
    expect(existsSync(savedNodesPath(dir))).toBe(false);
  });

  it('does not write over a list it could neither read nor move, and says so', async () => {
    const dir = stateDir();
    writeFileSync(savedNodesPath(dir), 'not json');
    failing.setAside = true;
    const app = await start(dir);
    const [notice] = await app.notices();
    expect(notice!.message).toMatch(/nor moved aside \(EROFS.*\).*will not save nodes this time/);
    await app.call('nodes.add', { host: 'worker-1' });
    expect(readFileSync(savedNodesPath(dir), 'utf8')).toBe('not json');
  });

  it('says so when another Nodescope on the same folder set the broken list aside first, and saves nothing', async () => {
    const dir = stateDir();
    writeFileSync(savedNodesPath(dir), 'not json');
    failing.setAside = 'gone';
    const app = await start(dir);
    const [notice] = await app.notices();
    expect(notice!.message).toMatch(/another Nodescope started at the same time has already set the file aside/);
    await app.call('nodes.add', { host: 'worker-1' });
    expect(readFileSync(savedNodesPath(dir), 'utf8')).toBe('not json');
  });

  it('shows one notice at a time for failing saves, and takes it back when a later save works', async () => {
    const dir = stateDir();
    const app = await start(dir);
    vi.spyOn(console, 'error').mockImplementation(() => {});
    failing.saves = true;
    await app.call('nodes.add', { host: 'worker-1' });
    await app.call('nodes.add', { host: 'worker-2' });
    const raised = app.events.flatMap((e) => (e.name === 'notice' ? [e.payload] : []));
    expect(raised).toHaveLength(2);
    const [only] = await app.notices();
    expect(await app.notices()).toHaveLength(1);
    expect(only!.message).toContain(`could not save the node list to ${savedNodesPath(dir)}: the disk is full`);
    expect(only!.nextStep).toMatch(/next change to a node saves the whole list again/);
    // The second notice replaced the first in every window.
    expect(app.events.some((e) => e.name === 'noticeClosed' && e.payload.id === raised[0]!.id)).toBe(true);

    failing.saves = false;
    await app.call('nodes.add', { host: 'worker-3' });
    expect(await app.notices()).toEqual([]);
    expect(app.events.some((e) => e.name === 'noticeClosed' && e.payload.id === only!.id)).toBe(true);
    expect(JSON.parse(readFileSync(savedNodesPath(dir), 'utf8')).nodes.map((n: { host: string }) => n.host)).toEqual(['worker-1', 'worker-2', 'worker-3']);
  });

  it('drops a dismissed notice for every window, and only once', async () => {
    const dir = stateDir();
    mkdirSync(savedNodesPath(dir));
    writeFileSync(join(savedNodesPath(dir), 'stray'), '');
    const app = await start(dir);
    const [notice] = await app.notices();
    expect(notice!.message).toContain('nodes.json is a folder, not a regular file');
    await app.call('notices.dismiss', { id: notice!.id });
    await app.call('notices.dismiss', { id: notice!.id });
    expect(await app.notices()).toEqual([]);
    expect(app.events.filter((e) => e.name === 'noticeClosed')).toHaveLength(1);
    expect(existsSync(savedNodesPath(dir))).toBe(false);
  });
});
