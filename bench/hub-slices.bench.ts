/**
 * Whole-node requests on a big node, in the server: the mask preview and the fleet matrix over 30,000 pods
 * held as bytes. While each runs, a timer ticks as the watch's reads would; the longest gap between ticks
 * (the longest the server could not read a watch) is set against the request's whole time in the same
 * run (target: at most 5% of it, i.e. the work went in slices). A preview with another mask is set against
 * the first (target: within 0.6x, the pods' whole sizes kept), and the matrix rebuilt after 200 pod changes
 * against its first build (target: within 0.25x, i.e. unchanged pods are not read again).
 */
import { handleRequest, type RequestName } from '../app/contract';
import { createCore } from '../app/core/core';
import type { NodeLinkEvents } from '../app/core/node-link';
import { encodePod } from '../app/pod/encode';
import { decodePod } from '../app/pod/decode';
import type { PodObject } from '../app/pod/pod-tree';
import { PodGenerator } from '../app/sim/pod-generator';
import { figure } from './figures';

const PODS = 30_000;
const CHANGES = 200;

/** How long `work` took, and the longest the event loop went without a turn meanwhile. */
async function stallDuring(work: () => Promise<unknown>): Promise<{ ms: number; stallMs: number }> {
  let last = performance.now();
  let stallMs = 0;
  const tick = () => {
    const t = performance.now();
    stallMs = Math.max(stallMs, t - last);
    last = t;
    timer = setTimeout(tick, 0);
  };
  let timer = setTimeout(tick, 0);
  const start = performance.now();
  await work();
  const ms = performance.now() - start;
  clearTimeout(timer);
  stallMs = Math.max(stallMs, performance.now() - last);
  return { ms, stallMs };
}

export async function hubSlicesBench(): Promise<boolean> {
  console.log(`\nwhole-node requests in the server: ${PODS.toLocaleString('en-US')} pods as bytes`);
  const generator = new PodGenerator({ seed: 12, nodeName: 'big-node' });
  const nowMs = Date.now();
  const pods = Array.from({ length: PODS }, () => ({ bytes: encodePod(generator.existing(nowMs)) }));
  let events: NodeLinkEvents | undefined;
  const hub = createCore({ openLink: (request) => ((events = request.events), { close: async () => undefined }) });
  const call = async (name: RequestName, input: unknown) => {
    const result = await handleRequest(hub.handlers, name, input);
    if (!result.ok) throw new Error(result.error.message);
    return result.value;
  };
  let ok = true;
  try {
    const node = (await call('nodes.add', { kind: 'unix', socketPath: '/run/big-node.sock' })) as { id: string };
    events!.state({ phase: 'live', since: nowMs });
    events!.reset(pods);
    await call('pods.rows', { nodeId: node.id });

    const preview = await stallDuring(() => call('mask.preview', { nodeId: node.id, mask: '@identity,status.phase' }));
    ok = figure('mask preview: longest stall, ms', preview.stallMs, 'ms', { baseline: preview.ms, target: { maxRatio: 0.05 }, note: `whole preview ${preview.ms.toFixed(0)} ms` }) && ok;
    // The user tries another mask: the pods' whole sizes are known by now.
    const next = await stallDuring(() => call('mask.preview', { nodeId: node.id, mask: '@identity,status.containerStatuses' }));
    ok = figure('mask preview, another mask, ms', next.ms, 'ms', { baseline: preview.ms, target: { maxRatio: 0.6 }, note: `longest stall ${next.stallMs.toFixed(1)} ms` }) && ok;

    const first = await stallDuring(() => call('fleet.matrix', { nodeIds: [node.id] }));
    ok = figure('fleet matrix: longest stall, ms', first.stallMs, 'ms', { baseline: first.ms, target: { maxRatio: 0.05 }, note: `first build ${first.ms.toFixed(0)} ms` }) && ok;

    // A busy node's changes: pods restarted, as the watch brings them.
    for (const stored of pods.slice(0, CHANGES)) {
      const tree = decodePod(stored.bytes).pod;
      (tree.metadata as PodObject).resourceVersion = `${nowMs}`;
      events!.change('MODIFIED', { bytes: encodePod(tree) });
    }
    await call('pods.rows', { nodeId: node.id });
    const rebuilt = await stallDuring(() => call('fleet.matrix', { nodeIds: [node.id] }));
    ok = figure(`fleet matrix after ${CHANGES} changes, ms`, rebuilt.ms, 'ms', { baseline: first.ms, target: { maxRatio: 0.25 }, note: `longest stall ${rebuilt.stallMs.toFixed(1)} ms` }) && ok;
  } finally {
    await hub.close();
  }
  return ok;
}
