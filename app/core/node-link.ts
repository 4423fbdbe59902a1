import type { FieldMask } from '../mask/field-mask';
import type { NodeMetrics, NodeSpec, NodeState, ReadFrom, SshTransportChoice } from '../contract';
import type { IncomingPod } from './node-pods';
import type { DecodedPod } from '../pod/pod-tree';
import type { SshPrompter } from '../ssh/ssh-prompter';
import type { SourceCapabilities } from '../source/capabilities';

/** What a live connection to one kubelet reports back to the core. */
export interface NodeLinkEvents {
  state(state: NodeState): void;
  /**
   * The pod set is exactly this now (first list, relist after a reconnect). A kubelet's pods come as
   * their bytes, with their rows under the request's mask taken while their trees were at hand.
   */
  reset(pods: IncomingPod[]): void;
  change(type: 'ADDED' | 'MODIFIED' | 'DELETED', pod: IncomingPod): void;
  /** With a mask: whether the kubelet applied it itself (the pods are masked here either way). */
  maskHonoured?(honoured: boolean): void;
  /** Which kubelet API the pods come from, once known. */
  readFrom?(api: ReadFrom): void;
  /** Which SSH client reaches the node (the user's OpenSSH or the built-in one), once chosen. */
  sshClient?(client: SshTransportChoice): void;
  /** What the kubelet says beside the pods, each time it is read; null when there is none any more. */
  metrics?(metrics: NodeMetrics | null): void;
  /**
   * Whether this connection keeps rows only (NodeLinkRequest.rowsOnly): once decided, and again as it switches
   * (NodeLink.keepRowsOnly); back to whole pods, once every pod has been read whole again.
   */
  rowsOnly?(rowsOnly: boolean): void;
  /**
   * The same pods, of the same versions, held differently now (the connection switched to rows only, or read
   * them whole again): the whole set as the connection holds it. Their rows are unchanged.
   */
  rehold?(pods: IncomingPod[]): void;
}

/**
 * A running connection to one node's kubelet: watching until closed, reconnecting on its own; with the
 * capabilities its source has (container logs, the node beside the kubelet), reached the way the link
 * reaches the node (over SSH: its own connection, never a second one).
 */
export interface NodeLink extends SourceCapabilities {
  close(): Promise<void>;
  /**
   * The pod read from the node now, as a whole (through the link's mask), for a rows-only node's pod being
   * opened; undefined when the node has no such pod (deleted meanwhile).
   */
  getPod?(uid: string): Promise<DecodedPod | undefined>;
  /** Every pod read from the node now, as a whole: a rows-only node's for an export or a comparison. */
  listPods?(): Promise<DecodedPod[]>;
  /**
   * Switches the connection to rows only, or back, in place: its watch and rows go on (docs/app.md, "Rows-only
   * nodes"). To rows only the bytes go at once; back, the pods are read whole again in the background. Answers
   * whether it switched: false while undecided (it decides as its first pod arrives) or already so.
   */
  keepRowsOnly?(rowsOnly: boolean): boolean;
}

export type { NodeLogFiles } from '../source/capabilities';

/** The sources a link watches: a node over SSH, a socket on this machine, the demo node. */
export type LiveNodeSpec = Extract<NodeSpec, { kind: 'ssh' | 'unix' | 'demo' }>;

export interface NodeLinkRequest {
  nodeId: string;
  spec: LiveNodeSpec;
  /** Sent to the kubelet (x-kubernetes-fieldmask) and applied to the pods as they arrive. */
  mask?: FieldMask;
  prompter: SshPrompter;
  events: NodeLinkEvents;
  /**
   * The bytes kept already of a pod (its history's latest version): a pod received again with the same
   * bytes keeps those instead of a second copy, so a reconnect's relist of 30,000 pods allocates (and
   * later frees) no new copy of the unchanged ones.
   */
  heldBytes?(uid: string): Uint8Array | undefined;
  /**
   * Whether to keep each pod's row and digest only, not its bytes (docs/app.md, "Rows-only nodes"): asked
   * once, as the first pod arrives; the core switches the connection later as the fleet crosses the setting.
   */
  rowsOnly?(): boolean;
}
