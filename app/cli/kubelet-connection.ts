/**
 * Opens the kubelet client a node command asked for, by the dial the app uses too
 * (app/source/kubelet-node/): over SSH (ssh_config resolved like ssh, the command line winning) to the
 * Pods API socket or the kubelet's REST API (`--api rest`, or `auto` on a node without a Pods API
 * socket), or straight to a socket on this machine with --local. Says on stderr which API the node is
 * read from.
 */
import type { KubeletClient } from '../kubelet/kubelet-client';
import type { KubeletError } from '../kubelet/kubelet-error';
import type { KubeletRestConnection } from '../kubelet-rest/kubelet-rest-connection';
import { dialKubeletNode, dialLocalKubelet, type KubeletDialSettings, type RestDialSettings } from '../source/kubelet-node/dial-kubelet-node';
import type { JumpConnectionPool } from '../ssh/shared-jump-connections';
import type { SshHop, SshTarget } from '../ssh/ssh-connection';
import type { SshSession } from '../ssh/ssh-session';
import type { HopLabel } from '../ssh/ssh-errors';
import type { SshPrompter } from '../ssh/ssh-prompter';
import { type NodeCommandOptions } from './node-options';
import { UsageError } from './usage-error';
import { printError } from './terminal-text';
import { sshDestination } from '../source/ssh-destination';
import type { SourceArgument } from '../source/source-arguments';

export interface KubeletConnection {
  client: KubeletClient;
  /** Where the socket (or the REST port) is, for messages. */
  socketPath: string;
  /** Over SSH: tells when the node stops answering (since when) and answers again (null); see SshSession.onSilence. */
  onSilence?(listener: (silentSince: number | null) => void): () => void;
  /** The SSH session it runs over (none with --local): other reads of the node share it. Closed with the connection. */
  session?: SshSession;
  /** Whom that session logs in as, where. */
  target?: SshTarget | HopLabel;
  /** While read through the REST API: its connection (what else the kubelet serves, e.g. /containerLogs). */
  rest?: KubeletRestConnection;
  close(): Promise<void>;
}

/** Tells the user why nothing happens yet while the kubelet initializes or rate-limits us. */
function announceRetry(err: KubeletError, delayMs: number): void {
  printError(`nodescope: ${err.message}; retrying in ${(delayMs / 1000).toFixed(1)} s`);
}

/** The SSH target of a node command: ssh_config, the command line's -l -p -i -J -F, and --known-hosts. */
export async function resolveNodeTarget(opts: NodeCommandOptions): Promise<SshTarget> {
  const { resolveSshTarget } = await import('../ssh/ssh-target');
  const { knownHosts, ...overrides } = opts.ssh;
  let target;
  try {
    // ssh://user@host:port names its user and port; the command line's -l and -p still win.
    const { host, ...named } = sshDestination(opts.node);
    target = await resolveSshTarget(host, { ...named, ...overrides });
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  // e.g. ControlMaster: used by ssh, not by the built-in transport; said once, as ssh -v would.
  for (const notice of [...target.proxyJump, target].flatMap((hop) => hop.notices ?? [])) printError(`nodescope: ${notice}`);
  if (knownHosts) {
    const pin = (hop: SshHop): SshHop => ({ ...hop, knownHostsFiles: [knownHosts] });
    target = { ...pin(target), proxyJump: target.proxyJump.map(pin) };
  }
  return target;
}

/** An SSH session to the node alone, for what needs no kubelet (its log files): ssh_config and the command line, a terminal for questions. */
export async function openNodeSession(opts: NodeCommandOptions): Promise<{ session: SshSession; close(): void }> {
  const [{ sessionToNode }, { terminalPrompter }] = await Promise.all([import('./node-session'), import('./terminal-prompter')]);
  const prompter = terminalPrompter();
  const { session } = await sessionToNode(opts, prompter).catch((err: unknown) => {
    prompter.close();
    throw err;
  });
  return {
    session,
    close: () => {
      session.close();
      prompter.close();
    },
  };
}

/** What the connections of one multi-source command share: one terminal for questions, one login per jump host. */
export interface SharedConnections {
  prompter: SshPrompter;
  jumpPool: JumpConnectionPool;
  /** This source's own: told as its dial moves on (KubeletDialOptions.onProgress), for the open limit. */
  progress?(): void;
}

/** What the node's REST flags say, as the dial (and `nodescope node`'s /configz) takes them. */
export async function restDialSettings(opts: NodeCommandOptions): Promise<RestDialSettings> {
  const [{ defaultStateDir }, { defaultPinsFile }] = await Promise.all([import('../host/state-dir'), import('../kubelet-rest/kubelet-certificate-pins')]);
  const { rest } = opts;
  return {
    readOnly: rest.readOnly,
    credentials: rest.credentials,
    pinsFile: rest.pinsFile ?? defaultPinsFile(defaultStateDir()),
    ...(rest.port ? { port: rest.port } : {}),
    ...(rest.caFile ? { caFile: rest.caFile } : {}),
    ...(rest.tcpBridgeCommand ? { tcpBridgeCommand: rest.tcpBridgeCommand } : {}),
    ...(rest.pollIntervalMs ? { pollIntervalMs: rest.pollIntervalMs } : {}),
    ...(opts.mask ? { mask: opts.mask } : {}),
    // -v shows every request made on the node.
    ...(opts.verbose ? { announce: (line: string) => printError(`nodescope: ${line}`) } : {}),
  };
}

/** What the node's flags say about reaching its kubelet, as the dial shared with the app takes it. */
async function dialSettings(opts: NodeCommandOptions): Promise<KubeletDialSettings> {
  return {
    api: opts.api,
    ...(opts.shape ? { shape: opts.shape } : {}),
    ...(opts.socketPath ? { socketPath: opts.socketPath } : {}),
    ...(opts.sudo ? { sudo: true } : {}),
    ...(opts.sudoCommand ? { sudoTemplate: opts.sudoCommand } : {}),
    ...(opts.mask ? { mask: opts.mask } : {}),
    ...(opts.callTimeoutMs ? { callTimeoutMs: opts.callTimeoutMs } : {}),
    retry: { onRetry: announceRetry },
    rest: await restDialSettings(opts),
  };
}

/**
 * A live SOURCE, reached as its kind connects (app/source/source-registry.ts): an SSH destination (the
 * node's name from here on), a socket here, or any other registered kind that connects.
 */
export async function connectToSource(source: Exclude<SourceArgument, { kind: 'file' }>, opts: NodeCommandOptions, shared?: SharedConnections): Promise<KubeletConnection> {
  const { sourceKindNode } = await import('../source/source-registry');
  const kind = sourceKindNode(source.kind);
  if (!kind.connect) throw new UsageError(`a ${source.kind} source has no kubelet to connect to: give an SSH destination or unix:PATH`);
  return kind.connect(source, opts, shared);
}

/** The kubelet's socket on this machine (`unix:PATH`, --local). */
export async function connectToLocalSocket(opts: NodeCommandOptions & { local: string }): Promise<KubeletConnection> {
  const node = dialLocalKubelet(opts.local, await dialSettings(opts));
  return { client: node.client, socketPath: node.endpoint, close: node.close };
}

/** The node over SSH: ssh_config and the command line, a terminal for questions unless shared. */
export async function connectOverSsh(opts: NodeCommandOptions, shared?: SharedConnections): Promise<KubeletConnection> {
  const settings = await dialSettings(opts);
  // The terminal prompter is loaded only when used: --local starts faster without it.
  const [{ terminalPrompter }, { sessionToNode }] = await Promise.all([import('./terminal-prompter'), import('./node-session')]);
  const own = shared ? undefined : terminalPrompter();
  try {
    const prompter = shared?.prompter ?? own!;
    const { target, session: given } = await sessionToNode(opts, prompter, shared);
    const node = await dialKubeletNode(target, settings, {
      prompter,
      session: given,
      name: opts.node,
      notice: (line) => printError(`nodescope: ${line}`),
      ...(shared?.progress ? { onProgress: shared.progress } : {}),
    });
    printError(
      node.rest
        ? `nodescope: reading ${opts.node} from the kubelet REST API (${opts.rest.readOnly ? 'http' : 'https'}://${node.endpoint} on the node)`
        : `nodescope: reading ${opts.node} from the Pods API socket ${node.endpoint}`,
    );
    const session = node.session!;
    return {
      client: node.client,
      socketPath: node.endpoint,
      onSilence: session.onSilence,
      session,
      target,
      ...(node.rest ? { rest: node.rest } : {}),
      close: async () => {
        await node.close();
        own?.close();
      },
    };
  } catch (err) {
    own?.close();
    throw err;
  }
}
