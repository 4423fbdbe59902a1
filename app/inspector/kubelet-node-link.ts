/**
 * H5's NodeLink over the kubelet client: SSH transport (or a socket on this machine, for the demo
 * node), a converging pod watch, and the watch's states mapped to the contract's NodeState.
 * reset() carries the full set after the first sync and after every re-sync; change() the live events.
 */
import type { NodeState } from '../contract';
import type { DecodedPod } from '../pod/pod-tree';
import { createKubeletClient, type KubeletClient } from '../kubelet/kubelet-client';
import { canPassByWaiting, KubeletError } from '../kubelet/kubelet-error';
import { startPodWatch, type PodWatch, type WatchState } from '../kubelet/pod-watch';
import { KUBELET_SOCKET_CANDIDATES } from '../ssh/remote-socket-probe';
import { openKubeletTransport, type KubeletTransport } from '../ssh/kubelet-transport';
import { backoffDelayMs, DEFAULT_BACKOFF } from '../ssh/reconnect-backoff';
import { isSshError } from '../ssh/ssh-errors';
import { resolveSshTarget } from '../ssh/ssh-target';
import { wakeableSleep } from '../util/wakeable-sleep';
import type { NodeLink, NodeLinkRequest } from './node-link';

export interface KubeletNodeLinkOptions {
  /** Talk to this socket on this machine instead of going through SSH (the demo node). */
  localSocket?: string;
  /** The ssh_config to read (like ssh -F); default ~/.ssh/config. */
  sshConfigFile?: string;
}

export function nodeStateOf(s: WatchState): NodeState | undefined {
  switch (s.state) {
    case 'connecting':
      return { phase: 'connecting', attempt: s.attempt, ...(s.received !== undefined ? { podsReceived: s.received } : {}) };
    case 'initializing':
      return { phase: 'kubeletInitializing', detail: `${s.detail}; retrying in ${(s.inMs / 1000).toFixed(1)} s` };
    case 'live':
      return { phase: 'live', since: s.since, ...(s.leftOut.length ? { leftOut: [...s.leftOut] } : {}) };
    case 'catchingUp':
      return {
        phase: 'catchingUp',
        listedAt: s.since,
        retryAt: Date.now() + s.inMs,
        attempt: s.attempt,
        cause: s.cause.message,
        ...(s.leftOut.length ? { leftOut: [...s.leftOut] } : {}),
      };
    case 'reconnecting':
      return { phase: 'reconnecting', attempt: s.attempt, retryAt: Date.now() + s.inMs, cause: s.cause.message };
    case 'error':
      return { phase: 'error', cause: s.cause.message, nextStep: s.hint };
    case 'closed':
      return undefined;
  }
}

const decodedOnly = ({ pod, unknownFields }: DecodedPod): DecodedPod => ({ pod, unknownFields });

export function openKubeletNodeLink(request: NodeLinkRequest, options: KubeletNodeLinkOptions = {}): NodeLink {
  const { spec, events } = request;
  // A unix: source is a socket on this machine, as the demo node's is.
  const localSocket = options.localSocket ?? (spec.kind === 'unix' ? spec.socketPath : undefined);
  let transport: KubeletTransport | undefined;
  let client: KubeletClient | undefined;
  let watch: PodWatch | undefined;
  let closed = false;
  // Ends a dial, host key question or socket probe still in progress when the link is closed.
  const abortOpen = new AbortController();

  const start = async () => {
    let socketPath = localSocket ?? (spec.kind === 'ssh' ? spec.socketPath : undefined) ?? KUBELET_SOCKET_CANDIDATES[0];
    let target = socketPath;
    if (!localSocket) {
      if (spec.kind !== 'ssh') throw new Error(`A ${spec.kind} source has no socket to connect to.`);
      const sshTarget = await resolveSshTarget(spec.host, {
        ...(spec.user ? { user: spec.user } : {}),
        ...(spec.port ? { port: spec.port } : {}),
        ...(spec.identityFile ? { identityFiles: [spec.identityFile] } : {}),
        ...(spec.jumpHost ? { proxyJump: spec.jumpHost } : {}),
        ...(options.sshConfigFile ? { configFile: options.sshConfigFile } : {}),
      });
      if (closed) return;
      // Without a socket path the transport finds the shipped or the documented socket on the node.
      const opened = await openKubeletTransport(sshTarget, {
        ...(spec.socketPath ? { socketPath: spec.socketPath } : {}),
        prompter: request.prompter,
        bridgeMode: spec.sudo ? 'sudo' : 'auto',
        signal: abortOpen.signal,
      });
      // Closed in the moment between the transport being returned and this line: the signal no longer applies.
      if (closed) return opened.close();
      transport = opened;
      target = transport.target;
      socketPath = transport.socketPath;
    }
    const t = transport;
    client = createKubeletClient({ target, socketPath, ...(t ? { transportError: () => t.lastError() } : {}) });
    watch = startPodWatch(client, {
      state: (s) => {
        const state = nodeStateOf(s);
        if (state && !closed) events.state(state);
      },
      // The hub keeps the decoded pod only (the watch keeps its identity and digest): one tree per pod.
      synced: (pods) => !closed && events.reset(pods.map(decodedOnly)),
      change: ({ type, pod }) => !closed && events.change(type, decodedOnly(pod)),
    });
  };

  const pause = wakeableSleep();

  // Opening can fail before the watch runs (finding the socket dials the node): a cause that can pass
  // on its own (host down, refused) is retried as a dropped watch is, and one that needs the user is shown.
  // The node has not been live yet here, so a missing socket or host name is a wrong setting.
  const open = async () => {
    for (let attempt = 1; ; attempt++) {
      try {
        await start();
        return;
      } catch (err) {
        if (closed) return;
        const known = err instanceof KubeletError || isSshError(err) ? err : null;
        if (!known || !canPassByWaiting(known, false)) {
          events.state({
            phase: 'error',
            cause: err instanceof Error ? err.message : String(err),
            nextStep: known?.hint ?? 'Check the node settings (host, user, jump host) and your ~/.ssh/config, then connect again.',
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

  return {
    async close() {
      closed = true;
      pause.wake();
      // A dial still finding the socket (a host key question nobody answers, a silent host) is
      // dropped now, so waiting for open() to stop is short and nothing outlives close().
      abortOpen.abort();
      await opening;
      await watch?.close();
      client?.close();
      await transport?.close();
    },
  };
}
