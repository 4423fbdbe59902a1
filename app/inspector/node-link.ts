import type { NodeSpec, NodeState } from '../contract';
import type { DecodedPod } from '../pod/pod-tree';
import type { SshPrompter } from '../ssh/ssh-prompter';

/** What a live connection to one kubelet reports back to the hub. */
export interface NodeLinkEvents {
  state(state: NodeState): void;
  /** The pod set is exactly this now (first list, relist after a reconnect). */
  reset(pods: DecodedPod[]): void;
  change(type: 'ADDED' | 'MODIFIED' | 'DELETED', pod: DecodedPod): void;
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
  prompter: SshPrompter;
  events: NodeLinkEvents;
}
