import { ContractError } from '../../app/contract/errors';
import { detachedCall } from '../../app/contract/handle-request';
import { createFakeBridge, type FakeBridge } from '../../app/contract/testing/fake-bridge';
import { isNodeWatchEvent, type AppEvent } from '../../app/core/app-event';
import type { NodeLink, NodeLinkRequest } from '../../app/core/node-link';
import { createCore } from '../../app/core/core';
import { openSimulatedLink, simulatedRecording } from '../../app/core/simulated-source';
import { streamPodsAsKubectl } from '../../app/pod/kubectl-json';

/**
 * The design preview's app core: the real core (app/core) over in-memory sources, so the preview and
 * the app cannot disagree. Only the host is played here: a few scripted SSH nodes (one reconnecting,
 * one failed, new ones asking about their host key), exports as browser downloads, no file access.
 * Never shipped (built only with `vite build --mode preview`).
 */
export function createPreviewCore(options: { seed?: number; scale?: number; eventsPerSecond?: number; leftOut?: string[]; fleet?: number } = {}): FakeBridge {
  const seed = options.seed ?? 7;
  const scale = options.scale ?? 1;
  const churn = options.eventsPerSecond ?? 4;
  /** Hosts whose first connection fails, as a node with a permission problem would. */
  const failFirst = new Set(['gpu-node-2']);
  let sims = 0;

  const later = (ms: number, run: () => void, isClosed: () => boolean) => setTimeout(() => !isClosed() && run(), ms);

  /**
   * The preview's stand-in for the host's registry of kinds (app/source/source-registry.ts, Node only): a
   * scripted scene picked by what the spec names (its fleet sockets, its SSH hosts that fail or stall),
   * every other source a simulated kubelet. It decides the scene, not how a kind behaves in the app.
   */
  const openLink = (request: NodeLinkRequest): NodeLink => {
    const { spec, events } = request;
    const fleetNode = spec.kind === 'unix' ? FLEET_SOCKET.exec(spec.socketPath) : null;
    if (fleetNode) return openSimulatedLink(request, { pods: 110, churnPerSecond: 0, seed: seed + 1000 + Number(fleetNode[1]), nodeName: spec.label ?? 'node' });
    if (spec.kind !== 'ssh') return openSimulatedLink(request, { pods: Math.round(300 * scale), churnPerSecond: churn, seed, nodeName: 'kind-worker', ...(options.leftOut ? { leftOut: options.leftOut } : {}) });
    let closed = false;
    let inner: NodeLink | null = null;
    const isClosed = () => closed;
    events.state({ phase: 'connecting', attempt: 1 });
    if (spec.host === 'edge-7.prod') {
      events.state({ phase: 'reconnecting', attempt: 3, retryAt: Date.now() + 9000, cause: 'SSH connection reset by peer' });
    } else if (failFirst.delete(spec.host)) {
      events.state({
        phase: 'error',
        cause: 'Permission denied opening /var/lib/kubelet/pods-api/pods-api.sock',
        nextStep: 'Add the SSH user to the kubelet group, or edit the node (Edit…) and tick “Use sudo to reach the sockets”.',
      });
    } else {
      later(
        400,
        () =>
          void request.prompter
            .hostKey({ host: spec.host, port: spec.port ?? 22, keyType: 'ssh-ed25519', fingerprint: 'SHA256:Jq1x7rQ0hVv3b2Hn0s8pQ0j8oJ0u6W3cXnQY0v9kLqg' })
            .then((answer) => {
              if (closed) return;
              if (answer === 'refuse') {
                events.state({ phase: 'error', cause: 'Host key refused', nextStep: 'Check the fingerprint with the node’s administrator, then connect again.' });
                return;
              }
              events.state({ phase: 'kubeletInitializing' });
              later(900, () => (inner = openSimulatedLink(request, { pods: Math.round(90 * scale), churnPerSecond: 0, seed: seed + ++sims, nodeName: spec.host })), isClosed);
            }),
        isClosed,
      );
    }
    return {
      async close() {
        closed = true;
        await inner?.close();
      },
    };
  };

  const core = createCore({ openLink });
  const notHere = (what: string) => () => {
    throw new ContractError('not-implemented', `The design preview has no files: ${what} works in the app.`);
  };
  const noLogs = { status: 'unavailable' as const, message: 'The design preview has no log files.', nextStep: 'Container logs show in the app, read from the node.' };
  const bridge = createFakeBridge({
    ...core.handlers,
    'app.info': () => ({ version: '0.1.0-preview', mode: 'browser', canPickFiles: false, canOpenFiles: false, defaultExportDir: '/home/operator/Downloads', sshConfigFile: '~/.ssh/config' }),
    'sshHosts.list': () => [
      { alias: 'bastion', hostName: 'bastion.prod.example.internal', user: 'ops' },
      { alias: 'edge-7.prod', hostName: '10.40.7.12', user: 'core', proxyJump: 'bastion' },
      { alias: 'gpu-node-2', hostName: '10.40.9.2', user: 'core', port: 2222 },
      { alias: 'kind-control-plane', hostName: '127.0.0.1', port: 32771, user: 'root' },
    ],
    // The export as the app writes it, handed to the browser as a download.
    'pods.export': async ({ nodeId, uids, format, path }) => {
      const pods = await core.shownPods(nodeId, uids);
      const mask = core.fieldMask(nodeId);
      const parts: string[] = [];
      streamPodsAsKubectl(pods, (text) => parts.push(text), { ndjson: format === 'ndjson', ...(mask ? { mask } : {}) });
      const blob = new Blob(parts, { type: 'application/json' });
      const name = (path ?? `pods.${format === 'list' ? 'json' : 'ndjson'}`).split('/').pop()!;
      const link = Object.assign(document.createElement('a'), { href: URL.createObjectURL(blob), download: name });
      link.click();
      URL.revokeObjectURL(link.href);
      return { status: 'saved', path: path ?? name, count: pods.length, bytes: blob.size };
    },
    'sources.open': notHere('opening snapshots'),
    'recording.start': notHere('recording'),
    'recording.stop': notHere('recording'),
    // The Logs tab says so as it says it for any source without log files.
    'logs.read': () => noLogs,
    'logs.follow': () => noLogs,
  });
  // Pod batches and feed lines reach the page through its pods.watch calls, as from a host.
  core.subscribe((event: AppEvent) => !isNodeWatchEvent(event) && bridge.emit(event.name, event.payload));

  void core.handlers['nodes.startDemo']({}, detachedCall());
  void core.handlers['nodes.add']({ kind: 'ssh', host: 'edge-7.prod', label: 'edge-7.prod' }, detachedCall());
  void core.handlers['nodes.add']({ kind: 'ssh', host: 'gpu-node-2' }, detachedCall());
  // An offline source with a time axis, as an opened recording shows.
  core.openOffline(
    simulatedRecording({ pods: 60, changes: 240, everyMs: 15_000, seed: seed + 100, nodeName: 'kind-worker', start: Date.now() - 3_600_000, file: '/home/operator/kind-worker-incident.recording.ndjson' }),
  );
  // ?fleet=N: N more nodes of 110 pods in four groups, to see the sidebar and the views over many sources.
  if (options.fleet) {
    void core.handlers['nodes.addMany']({
      nodes: Array.from({ length: options.fleet }, (_, i) => ({
        kind: 'unix' as const,
        socketPath: `/run/fleet/${i + 1}.sock`,
        label: `worker-${String(i + 1).padStart(3, '0')}`,
        group: `pool-${'abcd'[i % 4]}`,
      })),
    }, detachedCall());
  }
  return bridge;
}

/** The sockets of the ?fleet nodes: each a simulated kubelet of its own. */
const FLEET_SOCKET = /^\/run\/fleet\/(\d+)\.sock$/;
