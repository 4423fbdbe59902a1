/**
 * The one way to a kubelet node, for the app and the CLI alike: a socket on this machine, or over one SSH
 * session the Pods API socket (given, or looked for) or the kubelet's REST API (asked for, or `auto` on a
 * node without the socket), and the PodResources API beside it. What it opened is handed back as the
 * node's capabilities (pods, REST for metrics, PodResources for devices, the SSH session for the node's
 * files and commands), never kept inside one caller.
 */
import type { ApiChoice } from '../../contract/nodes';
import { createKubeletClient, type KubeletClient } from '../../kubelet/kubelet-client';
import type { RetryOptions } from '../../kubelet/call-retry';
import type { ApiShape } from '../../kubelet/pods-api-methods';
import type { KubeletRestConnection } from '../../kubelet-rest/kubelet-rest-connection';
import type { RestCredentialSources } from '../../kubelet-rest/rest-credentials';
import type { FieldMask } from '../../mask/field-mask';
import type { PodResourcesClient } from '../../podresources/pod-resources-client';
import type { KubeletTransport } from '../../ssh/kubelet-transport';
import type { SshTarget } from '../../ssh/ssh-connection';
import type { HopLabel } from '../../ssh/ssh-errors';
import type { SshPrompter } from '../../ssh/ssh-prompter';
import type { SshSession } from '../../ssh/ssh-session';
import type { JumpConnectionPool } from '../../ssh/shared-jump-connections';
import { socketCandidatesFor } from './api-choice';

/** How the kubelet's REST API is reached, when it is (as openKubeletRest takes it). */
export interface RestDialSettings {
  /** Default 10250, or 10255 with readOnly. */
  port?: number;
  readOnly?: boolean;
  credentials?: RestCredentialSources;
  caFile?: string;
  /** Where accepted serving certificates are pinned. */
  pinsFile: string;
  tcpBridgeCommand?: string;
  pollIntervalMs?: number;
  /** Applied to the pods as they arrive (REST has no mask of its own). */
  mask?: FieldMask;
  /** Told each request before it is sent (`GET https://127.0.0.1:10250/pods on the node`), for -v. */
  announce?: (line: string) => void;
}

/** What the node's settings (the app's node spec, the CLI's flags) say about reaching its kubelet. */
export interface KubeletDialSettings {
  /** The Pods API socket, the REST API, or the socket when the node has one, else REST. */
  api: ApiChoice;
  /** The Pods API's wire shape, and so which socket is looked for first; default: detected, the shipped socket first. */
  shape?: ApiShape;
  /** The Pods API socket on the node; default: the first that exists. */
  socketPath?: string;
  /** Reach the sockets through `sudo -n` (sudoTemplate, default socat). */
  sudo?: boolean;
  sudoTemplate?: string;
  rest: RestDialSettings;
  /** Also read devices, exclusive CPUs and memory from the PodResources API on this socket. */
  podResourcesSocket?: string;
  /** Sent to the Pods API (x-kubernetes-fieldmask) and applied to the pods as they arrive. */
  mask?: FieldMask;
  callTimeoutMs?: number;
  retry?: RetryOptions;
}

/**
 * The node sockets a dial will stream to, when known before it (a socket named, reached without sudo): what a
 * transport that forwards sockets (OpenSSH before 9.4) can forward as it logs in rather than in a run after.
 */
export const socketsToForward = (s: Pick<KubeletDialSettings, 'api' | 'socketPath' | 'sudo'>): string[] =>
  s.socketPath && s.api !== 'rest' && !s.sudo ? [s.socketPath] : [];

export interface KubeletDialOptions {
  prompter: SshPrompter;
  /** The node's session when already made (the user's OpenSSH); default a built-in one to the target. Closed with the node. */
  session?: SshSession;
  /** One login per jump host, however many nodes are behind it. */
  jumpPool?: JumpConnectionPool;
  /**
   * Drops the node: a dial, question or probe in progress rejects, having closed what it opened; once open,
   * its SSH session closes at once (a jump host's question it waited on is handed on to another node
   * sharing that login before the caller cancels its own questions), and close() ends the rest.
   */
  signal?: AbortSignal;
  /** The SSH session stopped answering (since when) or answers again (null); told from the moment it exists. */
  onSilence?(silentSince: number | null): void;
  /** The node as the user named it (an ssh_config alias), for messages; default its host name. */
  name?: string;
  /** What the dial decided on its way (no socket: REST; the bridge needed sudo), one line each, for the user. */
  notice?(line: string): void;
  /**
   * The dial moved on: the login's bytes arrived (built-in client), the node offered its host key, the login
   * is done (either client), the socket was found, the API opened. The open limit keeps a node's slot while
   * it moves, however slowly.
   */
  onProgress?(): void;
}

/** Where a node's pods are read from, and what else was opened to it: its capabilities. */
export interface KubeletNode {
  client: KubeletClient;
  /** The API the pods come through. */
  api: 'pods' | 'rest';
  /** The socket (or the REST port) on the node, for messages. */
  endpoint: string;
  /** The node's SSH session (none for a socket here): its files, commands and loopback ride it, never a second login. */
  session?: SshSession;
  /** While read through REST: the connection, for CPU, memory and probes (stats/summary). */
  rest?: KubeletRestConnection;
  /** With a PodResources socket: its client (the socket is opened on first use). */
  podResources?: PodResourcesClient;
  close(): Promise<void>;
}

/** A Pods API socket on this machine: the demo node, the simulator, Nodescope run on the node. */
export function dialLocalKubelet(socketPath: string, settings: Pick<KubeletDialSettings, 'shape' | 'mask' | 'callTimeoutMs' | 'retry'>): KubeletNode {
  const client = createKubeletClient({ target: socketPath, socketPath, ...clientSettings(settings) });
  return { client, api: 'pods', endpoint: socketPath, close: async () => client.close() };
}

function clientSettings(s: Pick<KubeletDialSettings, 'shape' | 'mask' | 'callTimeoutMs' | 'retry'>) {
  return { ...(s.shape ? { api: s.shape } : {}), ...(s.mask ? { mask: s.mask } : {}), ...(s.callTimeoutMs ? { callTimeoutMs: s.callTimeoutMs } : {}), ...(s.retry ? { retry: s.retry } : {}) };
}

/** How the sockets are bridged: through `sudo -n` when the settings say so, else as the SSH user (sudo when refused). */
const bridgeOf = (s: Pick<KubeletDialSettings, 'sudo' | 'sudoTemplate'>) => ({
  bridgeMode: s.sudo || s.sudoTemplate ? ('sudo' as const) : ('auto' as const),
  ...(s.sudoTemplate ? { sudoTemplate: s.sudoTemplate } : {}),
});

/**
 * The PodResources API on a node's socket: over the node's session when given (the bridge opens its channel on
 * first use, so a socket the user may not reach is reported with the devices, not as the node's error), else its own.
 */
export async function dialPodResources(
  target: SshTarget | HopLabel,
  socketPath: string,
  settings: Pick<KubeletDialSettings, 'sudo' | 'sudoTemplate'>,
  options: { prompter: SshPrompter; session?: SshSession; signal?: AbortSignal },
): Promise<{ client: PodResourcesClient; close(): Promise<void> }> {
  const [{ openKubeletTransport }, { createPodResourcesClient }] = await Promise.all([import('../../ssh/kubelet-transport'), import('../../podresources/pod-resources-client')]);
  const t = await openKubeletTransport(target, { socketPath, ...options, ...bridgeOf(settings) });
  const client = createPodResourcesClient({ target: t.open, socketPath, transportError: () => t.lastError() });
  return {
    client,
    close: async () => {
      client.close();
      await t.close();
    },
  };
}

/** The node over SSH: one session carries the Pods API or REST, and PodResources; closed last, with the rest. */
export async function dialKubeletNode(target: SshTarget | HopLabel, settings: KubeletDialSettings, options: KubeletDialOptions): Promise<KubeletNode> {
  // The SSH side (ssh2 with it, ~14 MiB resident) is loaded by the first SSH node: a socket here never needs it.
  const [{ sessionFor }, { findKubeletSocket, openKubeletTransport }, { openKubeletRest }] = await Promise.all([
    import('../../ssh/ssh-session'),
    import('../../ssh/kubelet-transport'),
    import('../../kubelet-rest/kubelet-rest-connection'),
  ]);
  const { signal, prompter } = options;
  const { onProgress = () => {} } = options;
  const own = sessionFor(target, options.session, { prompter, onProgress, ...(options.jumpPool ? { jumpPool: options.jumpPool } : {}) });
  if (options.onSilence) own.onSilence(options.onSilence);
  // The node answered: its host key is offered (the user's answer may take a while), or the login is done.
  own.onState((s) => {
    if (s.state === 'waiting-for-host-key' || s.state === 'connected') onProgress();
  });
  // Each use below shares the session; the node closes it once, last.
  const session: SshSession = { ...own, close: () => {} };
  const opened: { close(): unknown }[] = [];
  const closeAll = async () => {
    for (const o of opened.reverse()) await o.close();
    own.close();
  };
  const onAbort = () => own.close();
  signal?.addEventListener('abort', onAbort, { once: true });
  /** Throws once aborted, so what was opened is closed and nothing more is. */
  const stillWanted = () => {
    if (signal?.aborted) throw signal.reason instanceof Error ? signal.reason : new Error(`Connecting to ${target.host} was cancelled`);
  };
  const bridge = bridgeOf(settings);
  const candidates = socketCandidatesFor(settings.shape);
  try {
    let socketPath = settings.socketPath;
    let useRest = settings.api === 'rest';
    if (settings.api === 'auto' && !socketPath) {
      socketPath = await findKubeletSocket(session, candidates);
      stillWanted();
      onProgress();
      if (!socketPath) {
        useRest = true;
        options.notice?.(`no Pods API socket on ${options.name ?? target.host} (looked for ${candidates.join(', ')}); trying the kubelet REST API`);
      }
    }
    let node: Omit<KubeletNode, 'close' | 'podResources'>;
    if (useRest) {
      const rest = await openKubeletRest(target, {
        prompter,
        session,
        ...settings.rest,
        ...(settings.callTimeoutMs ? { callTimeoutMs: settings.callTimeoutMs } : {}),
        onChannelEvent: (e) => {
          if (e.type === 'switched-to-command') options.notice?.(`${e.reason}; using \`${e.command}\` on the node`);
        },
      });
      opened.push(rest);
      stillWanted();
      onProgress();
      node = { client: rest.client, api: 'rest', endpoint: `127.0.0.1:${rest.port}`, session: own, rest };
    } else {
      // Without a socket path the transport finds the first candidate on the node.
      const transport: KubeletTransport = await openKubeletTransport(target, {
        ...(socketPath ? { socketPath } : { socketCandidates: candidates }),
        prompter,
        session,
        ...bridge,
        ...(signal ? { signal } : {}),
        onBridgeEvent: (e) => {
          if (e.type === 'switched-to-sudo') options.notice?.(`${e.reason}; using \`${e.command}\``);
        },
      });
      opened.push(transport);
      stillWanted();
      onProgress();
      const client = createKubeletClient({ target: transport.open, socketPath: transport.socketPath, transportError: () => transport.lastError(), ...clientSettings(settings) });
      opened.push(client);
      node = { client, api: 'pods', endpoint: transport.socketPath, session: own };
    }
    let podResources: PodResourcesClient | undefined;
    if (settings.podResourcesSocket) {
      const pr = await dialPodResources(target, settings.podResourcesSocket, settings, { prompter, session, ...(signal ? { signal } : {}) });
      opened.push(pr);
      stillWanted();
      podResources = pr.client;
    }
    return {
      ...node,
      ...(podResources ? { podResources } : {}),
      close: async () => {
        signal?.removeEventListener('abort', onAbort);
        await closeAll();
      },
    };
  } catch (err) {
    signal?.removeEventListener('abort', onAbort);
    await closeAll();
    throw err;
  }
}
