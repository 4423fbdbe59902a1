import type { NodeSpec, NodeState } from '../contract';
import type { FieldMask } from '../mask/field-mask';
import type { DecodedPod } from '../pod/pod-tree';
import type { SshPrompter } from '../ssh/ssh-prompter';

/** What a live connection to one kubelet reports back to the hub. */
export interface NodeLinkEvents {
  state(state: NodeState): void;
  /** The pod set is exactly this now (first list, relist after a reconnect). */
  reset(pods: DecodedPod[]): void;
  change(type: 'ADDED' | 'MODIFIED' | 'DELETED', pod: DecodedPod): void;
  /** With a mask: whether the kubelet applied it itself (the pods are masked here either way). */
  maskHonoured?(honoured: boolean): void;
}

/** A running connection to one node's kubelet: watching until closed, reconnecting on its own. */
export interface NodeLink {
  close(): Promise<void>;
}

/** The sources a link watches: a node over SSH, a socket on this machine, the demo node. */
export type LiveNodeSpec = Extract<NodeSpec, { kind: 'ssh' | 'unix' | 'demo' }>;

export interface NodeLinkRequest {
  nodeId: string;
  spec: LiveNodeSpec;
  /** Sent to the kubelet (x-kubernetes-fieldmask) and applied to the pods as they arrive. */
  mask?: FieldMask;
  prompter: SshPrompter;
  events: NodeLinkEvents;
}
