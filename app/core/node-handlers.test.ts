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
