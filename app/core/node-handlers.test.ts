import { afterEach, describe, expect, it } from 'vitest';
import { handleRequest, type NodeInfo } from '../contract';
import { createCore, type Core } from './core';

const open: Core[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((hub) => hub.close()));
});

describe('nodes.addMany', () => {
  it('adds many nodes at once in slices, the event loop getting turns between them', async () => {
    const hub = createCore({ openLink: () => ({ close: async () => undefined }), sliceMs: 0, frameMs: 1 });
    open.push(hub);
    const added = new Set<string>();
    const seen: number[] = [];
    hub.subscribe((e) => {
      if (e.name !== 'nodeState') return;
      // How many nodes were added by the loop's next turn after the first one.
      if (added.size === 0) setImmediate(() => seen.push(added.size));
      added.add(e.payload.id);
    });
    const result = await handleRequest(hub.handlers, 'nodes.addMany', { nodes: Array.from({ length: 50 }, (_, i) => ({ kind: 'unix', socketPath: `/run/n${i}.sock` })) });
    expect(result.ok && (result.value as NodeInfo[]).map((n) => n.spec.kind)).toEqual(Array(50).fill('unix'));
    expect(seen).toHaveLength(1);
    expect(seen[0]).toBeLessThan(50);
  });
});

describe('nodes.setGroup', () => {
  it('tells each node once however often the list names it', async () => {
    const hub = createCore({ openLink: () => ({ close: async () => undefined }), sliceMs: 0, frameMs: 1 });
    open.push(hub);
    const added = await handleRequest(hub.handlers, 'nodes.add', { kind: 'unix', socketPath: '/run/g.sock' });
    const { id } = (added as { ok: true; value: NodeInfo }).value;
    const told: string[] = [];
    hub.subscribe((e) => {
      if (e.name === 'nodeState') told.push(`${e.payload.id} ${e.payload.spec.kind === 'unix' ? e.payload.spec.group : ''}`);
    });
    // A page may send the same node many times (a sloppy selection, a hostile local client): one event each.
    expect(await handleRequest(hub.handlers, 'nodes.setGroup', { nodeIds: Array(1000).fill(id), group: 'canary' })).toEqual({ ok: true, value: {} });
    expect(told).toEqual([`${id} canary`]);
  });
});

describe('the demo node removed and started again at once', () => {
  it('is started after the removal is over: the removal ends neither the new node nor its watchers', async () => {
    let releaseClose = () => {};
    const closeHeld = new Promise<void>((resolve) => (releaseClose = resolve));
    const removedIds: string[] = [];
    const hub = createCore({ openLink: () => ({ close: () => closeHeld }), removed: async (info) => void removedIds.push(info.id), sliceMs: 0, frameMs: 1 });
    open.push(hub);
    const first = await handleRequest(hub.handlers, 'nodes.startDemo', {});
    expect(first).toMatchObject({ ok: true, value: { id: 'demo' } });
    const told: string[] = [];
    hub.subscribe((e) => {
      if (e.name === 'nodeRemoved') told.push(`removed ${e.payload.nodeId}`);
      if (e.name === 'nodeState') told.push(`state ${e.payload.id}`);
    });
    // The removal waits for the demo's link to close; the user starts the demo again meanwhile (an undo, a double click).
    const removal = handleRequest(hub.handlers, 'nodes.remove', { nodeId: 'demo' });
    let watchEnded = false;
    const again = handleRequest(hub.handlers, 'nodes.startDemo', {}).then((result) => {
      // A window watches the demo node as soon as it is told it is there.
      void handleRequest(hub.handlers, 'pods.watch', { nodeId: 'demo' }).then(() => (watchEnded = true));
      return result;
    });
    await new Promise((resolve) => setImmediate(resolve));
    releaseClose();
    expect(await removal).toEqual({ ok: true, value: {} });
    expect(await again).toMatchObject({ ok: true, value: { id: 'demo' } });
    await new Promise((resolve) => setImmediate(resolve));
    expect(watchEnded).toBe(false);
    // The old node's removal is told before the new node is: a window's list ends with the demo node in it.
    expect(told.lastIndexOf('removed demo')).toBeLessThan(told.lastIndexOf('state demo'));
    expect(removedIds).toEqual(['demo']);
    expect(((await handleRequest(hub.handlers, 'nodes.list', {})) as { ok: true; value: NodeInfo[] }).value.map((n) => n.id)).toEqual(['demo']);
  });
});

describe('a node removed while its mask change reconnects it', () => {
  it('is not connected again: no link for a removed node, nothing told of it after its removal', async () => {
    let releaseClose = () => {};
    const closeHeld = new Promise<void>((resolve) => (releaseClose = resolve));
    const links: string[] = [];
    const hub = createCore({
      openLink: (request) => {
        links.push(request.nodeId);
        setImmediate(() => request.events.state({ phase: 'live', since: 1 }));
        return { close: () => closeHeld };
      },
      sliceMs: 0,
      frameMs: 1,
    });
    open.push(hub);
    const added = await handleRequest(hub.handlers, 'nodes.add', { kind: 'unix', socketPath: '/run/m.sock' });
    const { id } = (added as { ok: true; value: NodeInfo }).value;
    await expect.poll(async () => ((await handleRequest(hub.handlers, 'nodes.list', {})) as { ok: true; value: NodeInfo[] }).value[0]?.state.phase).toBe('live');
    const told: string[] = [];
    hub.subscribe((e) => {
      if (e.name === 'nodeRemoved') told.push('removed');
      if (e.name === 'nodeState') told.push(e.payload.state.phase);
    });
    // The new mask closes the node's link to ask again; the user removes the node meanwhile.
    const masking = handleRequest(hub.handlers, 'nodes.setMask', { nodeId: id, mask: 'status' });
    expect(await handleRequest(hub.handlers, 'nodes.remove', { nodeId: id })).toEqual({ ok: true, value: {} });
    releaseClose();
    await masking;
    await new Promise((resolve) => setImmediate(resolve));
    expect(links).toEqual([id]);
    expect(told.at(-1)).toBe('removed');
  });
});
