/**
 * The contract's node.info: the node's context around its pods (app/node-info), read through the source's
 * own way to its node (NodeReachable: the pods' SSH session, or here for a socket on this machine), the same
 * reader `nodescope node` runs. A node read through the kubelet's REST API gives its effective configuration
 * and feature gates from `/configz` (the file is read only when that fails, and says so). A kind with no node to ask (the demo, a file) and a node not connected are
 * answered as `unavailable` with the reason and what to do; each part that fails says why on its own.
 */
import { sourceCan } from '../source/kinds/source-kinds';
import type { NodeContextRead, NodeContextView, NodeInfo, RequestHandlers } from '../contract';
import { createNodeInfoReader } from '../node-info/node-info-reader';
import { PartError } from '../node-info/node-context';
import type { NodeAccess } from '../source/node-access';

export interface NodeInfoServiceDeps {
  /** The node's record (throws not-found for an unknown id). */
  node(nodeId: string): NodeInfo;
  /** The node beside its kubelet through the live link; undefined when it has none now. */
  nodeAccess(nodeId: string): Promise<NodeAccess | undefined>;
  /** The kubelet's pods as kubectl's JSON, and whether they came through a field mask (then not whole). */
  pods(nodeId: string): { pods: unknown[]; masked: boolean };
}

export function nodeInfoHandlers(deps: NodeInfoServiceDeps): Pick<RequestHandlers, 'node.info'> {
  return {
    'node.info': async ({ nodeId }): Promise<NodeContextRead> => {
      const node = deps.node(nodeId);
      if (!sourceCan(node.spec, 'nodeInfo')) {
        return {
          status: 'unavailable',
          message: `Node information is not available for this kind of source: ${node.label} is ${node.spec.kind === 'demo' ? 'the simulated demo node, which has no node of its own' : 'a file of pods, with no node to ask'}.`,
          nextStep: 'Open a node over SSH or a Pods API socket on this machine to see its kubelet, runtime and journal.',
        };
      }
      const access = await deps.nodeAccess(nodeId);
      if (!access) return { status: 'unavailable', message: `${node.label} is not connected, so its node cannot be asked.`, nextStep: 'Connect the node, then open Node info again.' };
      const reader = createNodeInfoReader({
        runner: access.commands,
        sudo: access.sudo,
        httpGet: (port, path) => access.httpGet(port, path),
        ...(access.configz ? { configz: access.configz } : {}),
        pods: async () => {
          const { pods, masked } = deps.pods(nodeId);
          // A masked pod may lack its container statuses: every container would look runtime-only.
          if (masked) throw new PartError("the node's pods are fetched through a field mask, so they may not name their containers", 'Clear the node\'s mask to compare the runtime\'s containers with its pods.');
          return pods;
        },
      });
      const context: NodeContextView = await reader.read();
      return { status: 'read', context };
    },
  };
}
