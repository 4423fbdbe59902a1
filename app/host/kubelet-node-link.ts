/**
 * H5's NodeLink over the kubelet client: over SSH the Pods API socket or the kubelet's REST API (as the
 * node's settings choose; auto: the socket when the node has one), or a socket on this machine (the demo
 * node); a converging pod watch, and the watch's states mapped to the contract's NodeState.
 * reset() carries the full set after the first sync and after every re-sync; change() the live events.
 * While live, CPU, memory, probes and devices are read at an interval (node-metrics-reader.ts).
 */
import { defaultSshTransport } from '../ssh/default-transport';
import { ContractError, type NodeState } from '../contract';
import { isNotHeld } from '../pod/stored-pod';
import type { KubeletClient } from '../kubelet/kubelet-client';
import { canPassByWaiting, KubeletError } from '../kubelet/kubelet-error';
import { startPodWatch, type PodWatch, type WatchState } from '../kubelet/pod-watch';
import { wireMask } from '../kubelet/received-pod';
import { defaultPinsFile } from '../kubelet-rest/kubelet-certificate-pins';
import { backoffDelayMs, DEFAULT_BACKOFF } from '../ssh/reconnect-backoff';
import { isSshError, type HopLabel } from '../ssh/ssh-errors';
import type { SshTarget } from '../ssh/ssh-connection';
import type { SshSession } from '../ssh/ssh-session';
import type { JumpConnectionPool } from '../ssh/shared-jump-connections';
import type { ConcurrencyLimit } from '../util/concurrency-limit';
import { wakeableSleep } from '../util/wakeable-sleep';
import { labelOf } from '../source/kinds/source-kinds';
import { dialKubeletNode, dialLocalKubelet, socketsToForward, type KubeletNode } from '../source/kubelet-node/dial-kubelet-node';
import { kubeletDialSettings } from '../source/kubelet-node/ssh-node-settings';
import { openNodeAccess, type NodeAccess, type NodeReachable } from '../source/node-access';
import { appNextStep, EDIT_NODE } from './app-next-step';
import type { NodeLink, NodeLinkRequest } from '../core/node-link';
import { readNodeMetrics } from './node-metrics-reader';
import { livePodHolding, type LivePod } from './live-pod-holding';
import { defaultStateDir } from './state-dir';

export interface KubeletNodeLinkOptions {
  /** Talk to this socket on this machine instead of going through SSH (a unix: source, the demo node). */
  localSocket?: string;
  /** Why there are no CPU, memory or probe results when the kubelet is read through its Pods API, and what would show them. */
  noRest?: string;
  /** Why there are no devices (no PodResources socket), and what would show them. */
  noPodResources?: string;
  /** The ssh_config to read (like ssh -F); default ~/.ssh/config. */
  sshConfigFile?: string;
  /** Where accepted kubelet serving certificates are pinned; default in the state folder. */
  pinsFile?: string;
  /** How often CPU, memory, probes and devices are read; default METRICS_INTERVAL_MS. */
  metricsIntervalMs?: number;
  /** Shared by every node the app opens: one login per jump host, however many nodes are behind it. */
  jumpPool?: JumpConnectionPool;
  /** Bounds how many nodes dial at once (opening a hundred at start); a hanging dial hands its slot on. */
  openLimit?: ConcurrencyLimit;
  /** The kubelet's podLogsDir on SSH nodes and local sockets; default /var/log/pods. */
  podLogsDir?: string;
}

/** CPU and memory move slowly enough to read every few seconds without loading the kubelet (k9s: 2 s to 5 s). */
export const METRICS_INTERVAL_MS = 5000;

/** `silentSince`: since when the SSH link has not answered, while it has not; a live watch is then shown as silent. */
export function nodeStateOf(s: WatchState, silentSince: number | null = null): NodeState | undefined {
  switch (s.state) {
    case 'connecting':
      return { phase: 'connecting', attempt: s.attempt, ...(s.received !== undefined ? { podsReceived: s.received } : {}) };
    case 'initializing':
      return { phase: 'kubeletInitializing', detail: `${s.detail}; retrying in ${(s.inMs / 1000).toFixed(1)} s` };
    case 'live':
      return {
        ...(silentSince === null ? { phase: 'live' as const } : { phase: 'silent' as const, silentSince }),
        since: s.since,
        ...(s.leftOut.length ? { leftOut: [...s.leftOut] } : {}),
      };
    case 'catchingUp':
      return {
        phase: 'catchingUp',
        watch: 'dropped',
        listedAt: s.since,
        retryAt: Date.now() + s.inMs,
        attempt: s.attempt,
        cause: s.cause.message,
        ...(s.leftOut.length ? { leftOut: [...s.leftOut] } : {}),
      };
    case 'listed':
      return { phase: 'catchingUp', watch: 'replaying', listedAt: s.since, attempt: s.attempt, behind: s.behind, ...(s.leftOut.length ? { leftOut: [...s.leftOut] } : {}) };
    case 'reconnecting':
      return { phase: 'reconnecting', attempt: s.attempt, retryAt: Date.now() + s.inMs, cause: s.cause.message };
    case 'error':
      return { phase: 'error', cause: s.cause.message, nextStep: appNextStep({ code: s.cause.code, nextStep: s.nextStep }) };
    case 'closed':
      return undefined;
  }
}

export function openKubeletNodeLink(request: NodeLinkRequest, options: KubeletNodeLinkOptions = {}): NodeLink & NodeReachable {
  const { spec, events } = request;
  // A socket on this machine (a unix: source, the demo node), else the node over SSH.
  const { localSocket } = options;
  /** The node's kubelet and what else was opened to it (REST, PodResources, its SSH session), once dialled. */
  let node: KubeletNode | undefined;
  /** Whether the node's settings run what needs root through sudo. */
  let dialSudo = false;
  let watch: PodWatch<LivePod> | undefined;
  let closed = false;
  /**
   * Whether this connection keeps rows only, decided as its first pod arrives (by then every node of a batch
   * added at once, or restored at start, is counted), then switched in place (keepRowsOnly).
   */
  let rowsOnly: boolean | undefined;
  /** What the core was told: still rows only while a switch back to whole pods reads them again. */
  let toldRowsOnly = false;
  const keepsRowsOnly = () => {
    if (rowsOnly === undefined) {
      rowsOnly = request.rowsOnly?.() ?? false;
      toldRowsOnly = rowsOnly;
      events.rowsOnly?.(rowsOnly);
    }
    return rowsOnly;
  };
  // Ends a dial, host key question or socket probe still in progress when the link is closed.
  const abortOpen = new AbortController();
  const metricsPause = wakeableSleep();

  // Why what the kind's API lacks is absent: the kind's own words (app/source/open/), else in general.
  const noRest = options.noRest ?? 'Read through the Pods API, which has no CPU, memory or probe results.';
  const noPodResources = options.noPodResources ?? 'Devices come from the PodResources API, which this source does not read.';

  /** CPU, memory, probes and devices while the node is live, every metricsIntervalMs. */
  const readMetrics = async () => {
    while (!closed) {
      if (watch?.state().state === 'live') {
        const w = watch;
        const metrics = await readNodeMetrics({
          ...(node?.rest ? { rest: node.rest.client } : {}),
          noRest,
          ...(node?.podResources ? { podResources: node.podResources } : {}),
          noPodResources,
          listed: function* () {
            for (const p of w.held().values()) yield { uid: p.uid, namespace: p.namespace, name: p.name, phase: p.row.phase };
          },
        });
        if (closed) return;
        events.metrics?.(metrics);
      }
      await metricsPause.sleep(options.metricsIntervalMs ?? METRICS_INTERVAL_MS);
    }
  };

  let wasLive = false;
  /** The watch's last state, and since when the SSH link has not answered (null while it answers). */
  let watchState: WatchState | undefined;
  let silentSince: number | null = null;
  const report = () => {
    const state = watchState && nodeStateOf(watchState, silentSince);
    if (state && !closed) events.state(state);
  };
  const { mask } = request;
  // Asked with the identity paths too, so every pod can be tracked by UID; the node's own mask
  // (NodePods) then shows only what the user selected.
  const wireOptions = mask ? { mask: wireMask(mask) } : {};
  const holding = livePodHolding(wireOptions.mask, mask ?? null, request.heldBytes, keepsRowsOnly);

  /** The held pods held again as the holding says now (and `read` for those of the same version): the core is told. */
  const rehold = (read?: Iterable<LivePod>) => {
    if (!watch || watch.rehold(read).length === 0) return;
    events.rehold?.([...watch.held().values()]);
  };
  /** Back to whole pods: once every held pod has its bytes again, the core is told (its history starts then). */
  const toldWholeOnceRead = (): boolean => {
    if (rowsOnly || !toldRowsOnly || !watch) return !toldRowsOnly;
    for (const pod of watch.held().values()) if (isNotHeld(pod)) return false;
    toldRowsOnly = false;
    events.rowsOnly?.(false);
    return true;
  };
  const regainPause = wakeableSleep();
  /** Bumped by each switch: a reading from before a switch to rows only and back again leaves off for the new one. */
  let switches = 0;
  /**
   * Reads the pods whole again after a switch back from rows only: a ListPods while the watch is live (its
   * pods of the versions held replace them; the watch itself brings newer ones whole), again until every pod
   * is whole. A resync after a reconnect decodes them again too. Ends when the node switches back or closes.
   */
  const readWholeAgain = async () => {
    const run = ++switches;
    const going = () => !closed && run === switches && rowsOnly === false;
    for (let attempt = 1; going() && !toldWholeOnceRead(); attempt++) {
      const client = node?.client;
      if (client && watch?.state().state === 'live') {
        const whole = new Map<string, LivePod>();
        for (const pod of watch.held().values()) if (!isNotHeld(pod)) whole.set(pod.digest, pod);
        try {
          // Each pod arriving is progress: a slow list keeps its slot, a silent one hands it on.
          const list = (progress: () => void = () => {}) =>
            client.listPods({
              waitIfBusy: false,
              arrived: progress,
              intake: { known: (digest) => whole.get(digest), keep: holding.keep, ...(holding.reads ? { reads: holding.reads } : {}) },
            });
          // A first list's work for each node switching back at once: paced as opening them is.
          const { pods } = await (options.openLimit ? options.openLimit.run(list) : list());
          if (!going()) return;
          // The versions held take their bytes, keeping the very rows shown (so the core's entries are those versions).
          const held = watch.held();
          rehold(pods.flatMap((pod) => {
            const was = held.get(pod.uid);
            if (!was || was.digest !== pod.digest) return [];
            // Set in place, not spread: a spread object per pod of every node switching back, each a shape of its own.
            pod.row = was.row;
            pod.matrix = was.matrix;
            return [pod];
          }));
          if (toldWholeOnceRead()) return;
        } catch {
          // The watch reconnects on its own; the list is asked again once it is live.
        }
      }
      await regainPause.sleep(backoffDelayMs(attempt, DEFAULT_BACKOFF));
    }
  };
  /** Settles once the watch has a first answer (live, or a failure); the limiter's slot is held until then. */
  let answered!: () => void;
  /** Tells the open limit that the open under way moved on (see `open`); nothing once it has its first answer. */
  let moved: () => void = () => {};
  const firstAnswer = new Promise<void>((resolve) => (answered = resolve));
  const startWatch = (c: KubeletClient) => {
    // Whether the kubelet masked what it sent: told once known, and again if a later pod says otherwise.
    const noteHonoured = (pods: readonly LivePod[]) => {
      if (!mask || closed || pods.length === 0) return;
      events.maskHonoured?.(pods.every((p) => p.maskHonoured !== false));
    };
    watch = startPodWatch(
      c,
      {
        state: (s) => {
          // Pods of the first list arriving (counted as they come), or the kubelet saying it initializes.
          if (s.state === 'initializing' || (s.state === 'connecting' && s.received !== undefined)) moved();
          if (s.state !== 'connecting' && s.state !== 'initializing') answered();
          if (closed || s.state === 'closed') return;
          if (s.state === 'live') {
            const api = watch?.api();
            if (api) events.readFrom?.(api);
            // Going live: read the metrics now rather than at the end of the current wait, and the pods whole again if that waits.
            if (!wasLive) {
              metricsPause.wake();
              regainPause.wake();
            }
          }
          wasLive = s.state === 'live';
          watchState = s;
          report();
        },
        synced: (pods) => {
          if (closed) return;
          // The core keeps the very objects the watch holds: each pod once, as its bytes and row.
          events.reset(pods);
          noteHonoured(pods);
          // A resync reads again the pods a switch back to whole pods is waiting for.
          toldWholeOnceRead();
        },
        change: ({ type, pod }) => {
          if (closed) return;
          events.change(type, pod);
          if (type !== 'DELETED') noteHonoured([pod]);
        },
      },
      // The window shows a node's pods as soon as a list of them arrives, not after the watch's slower replay.
      { masked: mask !== undefined, holding, listFirst: true },
    );
    void readMetrics();
  };


  const start = async () => {
    if (localSocket) {
      node = dialLocalKubelet(localSocket, wireOptions);
      return startWatch(node.client);
    }
    // Only a node over SSH comes without a socket here; a spec of another kind here is a bug.
    if (spec.kind !== 'ssh') throw new Error(`A ${spec.kind} source has no socket to connect to.`);
    const overrides = {
      ...(spec.user ? { user: spec.user } : {}),
      ...(spec.port ? { port: spec.port } : {}),
      ...(spec.identityFile ? { identityFiles: [spec.identityFile] } : {}),
      ...(spec.jumpHost ? { proxyJump: spec.jumpHost } : {}),
      ...(options.sshConfigFile ? { configFile: options.sshConfigFile } : {}),
    };
    // The node's setting, else the user's own ssh where it is installed (app/ssh/default-transport.ts).
    const sshClient = spec.ssh ?? defaultSshTransport();
    events.sshClient?.(sshClient);
    const settings = kubeletDialSettings(spec, options.pinsFile ?? defaultPinsFile(defaultStateDir()), wireOptions.mask);
    let sshTarget: SshTarget | HopLabel;
    let session: SshSession | undefined;
    if (sshClient === 'openssh') {
      const { createOpenSshSession } = await import('../ssh/openssh/openssh-session');
      ({ session, label: sshTarget } = await createOpenSshSession({ destination: spec.host, ...overrides }, {
        prompter: request.prompter,
        forwardSockets: socketsToForward(settings),
        // Each line of a login the dial waits for: a loaded machine logs in slowly, not never.
        onProgress: () => moved(),
      }));
      // ssh_config applied (`ssh -G`): a step of its own on a machine loaded with a thousand nodes.
      moved();
    } else {
      const { resolveSshTarget } = await import('../ssh/ssh-target');
      sshTarget = await resolveSshTarget(spec.host, overrides);
    }
    if (closed) return session?.close();
    dialSudo = settings.sudo === true;
    node = await dialKubeletNode(sshTarget, settings, {
      prompter: request.prompter,
      ...(session ? { session } : {}),
      ...(options.jumpPool ? { jumpPool: options.jumpPool } : {}),
      signal: abortOpen.signal,
      onProgress: () => moved(),
      // A link that stops answering shows its pods as stale until it answers again or is given up and re-dialled.
      onSilence: (since) => {
        silentSince = since;
        report();
      },
    });
    // Closed in the moment between the node being returned and this line: the signal no longer applies.
    if (closed) return node.close();
    startWatch(node.client);
  };

  const pause = wakeableSleep();

  /** The node beside its kubelet, through the node's own session; here for a socket on this machine (Nodescope on the node). */
  let access: Promise<NodeAccess> | undefined;
  const nodeAccess = async (): Promise<NodeAccess | undefined> => {
    if (closed || !node) return undefined;
    const rest = node.rest;
    // Where the REST port is reached already, the kubelet's effective configuration is asked of it.
    const podResources = node.podResources;
    const socketPath = spec.kind === 'ssh' ? spec.podResourcesSocket : undefined;
    access ??= openNodeAccess(node.session, { node: labelOf(spec), sudo: node.session !== undefined && dialSudo }).then((a) => ({
      ...a,
      ...(rest ? { configz: () => rest.client.configz() } : {}),
      ...(podResources && socketPath ? { allocatable: { socketPath, read: () => podResources.allocatable() } } : {}),
    }));
    return access;
  };

  // Opening can fail before the watch runs (finding the socket dials the node): a cause that can pass
  // on its own (host down, refused) is retried as a dropped watch is, and one that needs the user is shown.
  // The node has not been live yet here, so a missing socket or host name is a wrong setting.
  const open = async () => {
    for (let attempt = 1; ; attempt++) {
      try {
        // The SSH login and the first list happen as the watch starts: that is what the limiter bounds. A
        // local socket too: a thousand opened at once all stayed connecting for minutes, every first list
        // waiting behind the others' decoding on this one thread. The slot is kept while the open moves on
        // (the node answers, the login is done, the socket found, pods arrive), however slowly; a node that
        // goes silent hands it on.
        const startAndAnswer = async (progress: () => void) => {
          moved = progress;
          await start();
          await firstAnswer;
        };
        await (options.openLimit ? options.openLimit.run(startAndAnswer) : start());
        return;
      } catch (err) {
        if (closed) return;
        const known = err instanceof KubeletError || isSshError(err) ? err : null;
        if (!known || !canPassByWaiting(known, false)) {
          events.state({
            phase: 'error',
            cause: err instanceof Error ? err.message : String(err),
            nextStep: known ? appNextStep(known) : `Check the node's host, user and jump host and ${options.sshConfigFile ?? '~/.ssh/config'}, then connect again; to change them, ${EDIT_NODE}.`,
          });
          return;
        }
        const inMs = backoffDelayMs(attempt, DEFAULT_BACKOFF);
        events.state({ phase: 'reconnecting', attempt, retryAt: Date.now() + inMs, cause: known.message });
        await pause.sleep(inMs);
        if (closed) return;
      }
    }
  };
  const opening = open();

  /** The kubelet while the node is connected; a whole pod read from a node not connected would be a guess. */
  const connectedClient = (): KubeletClient => {
    if (closed || !node || watch === undefined) {
      throw new ContractError('unavailable', `${labelOf(spec)} is not connected, and a rows-only node's pods are read from the node.`, 'Connect the node, then open the pod again.');
    }
    return node.client;
  };

  return {
    nodeAccess,
    async getPod(uid) {
      try {
        return (await connectedClient().getPod(uid)).pod;
      } catch (err) {
        if (err instanceof KubeletError && err.code === 'NOT_FOUND') return undefined;
        throw err;
      }
    },
    async listPods() {
      return (await connectedClient().listPods()).pods;
    },
    keepRowsOnly(next) {
      // Not decided yet: the node decides as its first pod arrives, as the fleet is then.
      if (closed || rowsOnly === undefined || rowsOnly === next) return false;
      rowsOnly = next;
      if (next) {
        switches++;
        regainPause.wake();
        if (!toldRowsOnly) {
          toldRowsOnly = true;
          events.rowsOnly?.(true);
        }
        // Every pod's bytes go now; the watch goes on, its rows as they were.
        rehold();
      } else void readWholeAgain();
      return true;
    },
    // Over SSH the logs are read through the watch's own session (a command per read, as nodescope logs does).
    async logFiles() {
      const access = await nodeAccess();
      if (!access) return undefined;
      const logsDir = options.podLogsDir ?? (await import('../logs/pod-log-layout')).DEFAULT_POD_LOGS_DIR;
      return { access: access.files, logsDir, sudo: access.sudo };
    },
    async kubeletLogs() {
      const client = closed || node?.api !== 'rest' ? undefined : node.rest?.client;
      return client && { read: (t, o) => client.containerLog(t, o), origin: (t, o) => client.containerLogOrigin(t, o) };
    },
    async close() {
      closed = true;
      answered();
      pause.wake();
      // A dial still finding the socket (a host key question nobody answers, a silent host) is
      // dropped now, so waiting for open() to stop is short and nothing outlives close().
      abortOpen.abort();
      metricsPause.wake();
      regainPause.wake();
      await opening;
      await watch?.close();
      await node?.close();
      events.metrics?.(null);
    },
  };
}
