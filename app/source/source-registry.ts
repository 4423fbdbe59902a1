/**
 * The Node side of every kind of source, by name, as grpc-js registers its resolvers by scheme: how a
 * `nodescope` SOURCE names one (its scheme), how the app's host opens its link, how a CLI command connects
 * to its kubelet, how `nodescope ui` takes it into the node list and where `nodescope logs` reads its logs. What a kind is without opening it (label, group, capabilities) is its browser-safe half,
 * app/source/kinds/. A new kind is a folder with both halves (see app/source/open/) and one
 * registerSourceKind call; nothing else switches on kinds.
 */
import type { KubeletConnection, SharedConnections } from '../cli/kubelet-connection';
import type { NodeCommandOptions } from '../cli/node-options';
import type { AddNodeSpec } from '../contract';
import type { LogFileAccess } from '../logs/log-file-access';
import type { LogReadOptions } from '../logs/log-options';
import type { PodLogLine } from '../logs/pod-logs';
import type { NodeLink, NodeLinkRequest } from '../core/node-link';
import type { KubeletNodeLinkOptions } from '../host/kubelet-node-link';
import { registerSourceKindInfo, type SourceKindInfo } from './kinds/source-kinds';
import { DEMO_SOURCE } from './open/demo-source';
import { FILE_SOURCE } from './open/file-source';
import { SSH_SOURCE } from './open/ssh-source';
import { UNIX_SOURCE } from './open/unix-source';

/** A SOURCE argument as its kind read it: `kind` names the registered kind that connects to it. */
export interface KindArgument {
  kind: string;
}

/** How a kind recognises its SOURCE arguments. */
export interface ArgumentKind<A extends KindArgument> {
  /** Its scheme, when its arguments spell one (`unix:`, `ssh://`): tried before those without. */
  scheme?: string;
  /** The argument as this kind, or undefined when it is not one. */
  parse(arg: string): A | undefined;
  /** Takes every argument no other kind does (an SSH destination: host, user@host, ssh_config alias). */
  takesTheRest?: boolean;
}

/** What a kind tells the kubelet link it opens through: a socket here, and why metrics it lacks are absent. */
export type KindLinkOptions = Pick<KubeletNodeLinkOptions, 'localSocket' | 'noRest' | 'noPodResources'>;

/** What the host gives every kind: the kubelet link the app dials (tests: a simulated kubelet behind any node). */
export interface HostSourceContext {
  kubeletLink(request: NodeLinkRequest, options?: KindLinkOptions): NodeLink;
}

/** A kind as one host opens it, with what it started for that host (the demo's kubelet) until closed. */
export interface HostOpening {
  openLink(request: NodeLinkRequest): NodeLink;
  /** A source of this kind was removed from the app. */
  removed?(): Promise<void>;
  close?(): Promise<void>;
}

/**
 * What `nodescope ui` does with a SOURCE of a kind: opens a file as an offline source, adds a node as it is
 * named, or expands a name with ssh_config's Host patterns (as --hosts-file's lines are) into the nodes
 * `node` makes of each host it matches.
 */
export type UiEntry = { open: string } | { add: AddNodeSpec } | { expand: string; node(host: string): AddNodeSpec };

/** A node's log files, open for reading, until closed. */
export interface OpenLogFiles {
  access: LogFileAccess;
  close(): void;
}

/**
 * Where `nodescope logs` reads a kind's container logs: the node's log files (over SSH, or on this machine),
 * or what a recording kept of them, as it was at --at (where -p is kubectl's --previous: a file has no port).
 */
export type KindLogs<A extends KindArgument> =
  | { from: 'node files'; open(source: A, opts: NodeCommandOptions): Promise<OpenLogFiles> }
  | {
      from: 'recording';
      read(source: A, opts: NodeCommandOptions & { extraValues: Record<string, unknown> }, read: LogReadOptions): Promise<{ podName: string; lines: AsyncIterable<PodLogLine> }>;
    };

export interface SourceKindNode<A extends KindArgument = KindArgument> {
  /** Its name: the `kind` of its specs (app/source/kinds) and of its SOURCE arguments. */
  kind: string;
  /** How a `nodescope` SOURCE names it; none when the CLI cannot. */
  argument?: ArgumentKind<A>;
  /** How the app opens its live sources, once per host; none for what the app opens otherwise (files). */
  host?(context: HostSourceContext): HostOpening;
  /** How a CLI command reaches its kubelet; none for what the CLI reads otherwise (files). */
  connect?(source: A, opts: NodeCommandOptions, shared?: SharedConnections): Promise<KubeletConnection>;
  /** What `nodescope ui` does with its SOURCE arguments; none when the UI cannot take them. */
  ui?(source: A): UiEntry;
  /** Where `nodescope logs` reads its container logs; none when it has none. */
  logs?: KindLogs<A>;
}

const KINDS = new Map<string, SourceKindNode>();

/**
 * Registers a kind: its Node side here and, when given, its browser-safe half (a kind the window shows).
 * Built-in kinds are registered below; a later registration of the same name replaces it.
 */
export function registerSourceKind<A extends KindArgument>(node: SourceKindNode<A>, info?: SourceKindInfo): void {
  KINDS.set(node.kind, node as unknown as SourceKindNode);
  if (info) registerSourceKindInfo(info);
}

/** The Node side of a kind; a kind never registered is a bug, said with its name. */
export function sourceKindNode(kind: string): SourceKindNode {
  const node = KINDS.get(kind);
  if (!node) throw new Error(`No source kind '${kind}' is registered (app/source/source-registry.ts).`);
  return node;
}

/** Every registered kind's argument reader (source-arguments.ts tries them, schemes first). */
export function argumentKinds(): ArgumentKind<KindArgument>[] {
  return [...KINDS.values()].flatMap((kind) => (kind.argument ? [kind.argument] : []));
}

for (const kind of [SSH_SOURCE, UNIX_SOURCE, DEMO_SOURCE, FILE_SOURCE]) registerSourceKind(kind as SourceKindNode<KindArgument>);
