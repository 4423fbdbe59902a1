import { afterEach, describe, expect, it } from 'vitest';
import { detachedCall, handleRequest, type WorkloadMatrixView } from '../contract';
import type { DecodedPod } from '../pod/pod-tree';
import { createCore, type Core } from './core';
import type { NodeLinkEvents } from './node-link';

const pod = (uid: string, image: string): DecodedPod => ({
  pod: {
    metadata: { uid, name: `web-${uid}`, namespace: 'shop', ownerReferences: [{ kind: 'DaemonSet', name: 'web', uid: 'ds', controller: true }] },
    spec: { containers: [{ name: 'app', image }] },
    status: { phase: 'Running' },
  },
  unknownFields: [],
});

let hubs: Core[] = [];
afterEach(async () => {
  await Promise.all(hubs.map((h) => h.close()));
  hubs = [];
});

describe('the fleet matrix as a subscription', () => {
  it('sends the matrix, then a new one when a watched source changes, until its caller cancels', async () => {
    const kubelets = new Map<string, NodeLinkEvents>();
    const hub = createCore({ openLink: (r) => (kubelets.set(r.nodeId, r.events), { close: async () => {} }), frameMs: 1, sliceMs: 0, matrixPaceMs: 0 });
    hubs.push(hub);
    const ids: string[] = [];
    for (const label of ['a', 'b']) {
      const node = await hub.handlers['nodes.add']({ kind: 'unix', socketPath: `/run/${label}.sock`, label }, detachedCall());
      kubelets.get(node.id)!.state({ phase: 'live', since: 1 });
      kubelets.get(node.id)!.reset([pod(label, 'web:1')]);
      ids.push(node.id);
    }
    const matrices: WorkloadMatrixView[] = [];
    const watching = new AbortController();
    const watch = handleRequest(hub.handlers, 'fleet.watchMatrix', { nodeIds: ids }, { signal: watching.signal, caller: new AbortController().signal, progress: (m) => matrices.push(m as WorkloadMatrixView) });
    await expect.poll(() => matrices.at(-1)?.rows[0]?.cells.filter(Boolean).length).toBe(2);
    expect(matrices.at(-1)!.drifted).toBe(0);
    kubelets.get(ids[1]!)!.change('MODIFIED', pod('b', 'web:2'));
    await expect.poll(() => matrices.at(-1)?.drifted).toBe(1);
    watching.abort();
    expect(await watch).toMatchObject({ ok: false, error: { code: 'cancelled' } });
    const sent = matrices.length;
    kubelets.get(ids[1]!)!.change('MODIFIED', pod('b', 'web:1'));
    // The one-shot job sees the change; the ended watch sent nothing more.
    await expect.poll(async () => ((await handleRequest(hub.handlers, 'fleet.matrix', { nodeIds: ids })) as { value: WorkloadMatrixView }).value.drifted).toBe(0);
    expect(matrices).toHaveLength(sent);
  });
});
