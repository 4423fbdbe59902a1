import type { Bridge } from '../../app/contract/bridge';
import type { NodeInfo } from '../../app/contract/nodes';

/**
 * Adds a removed node back as it was (undo): reached the same way under the same label, with the
 * same field mask; the demo node is started again. It comes back as a new node, so it connects afresh.
 */
export async function restoreNode(bridge: Bridge, node: NodeInfo): Promise<NodeInfo> {
  const added = node.simulated ? await bridge.request('nodes.startDemo', {}) : await bridge.request('nodes.add', { ...node.spec, label: node.label });
  if (node.mask) await bridge.request('nodes.setMask', { nodeId: added.id, mask: node.mask });
  return added;
}
