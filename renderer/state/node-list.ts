import type { NodeInfo } from '../../app/contract/nodes';

/** What a new record did to the list: a node added, only its pod count moved, or anything else changed. */
export type NodeListChange = 'added' | 'podCount' | 'changed' | 'same';

/**
 * The list with a node's latest record (from an event or from the answer to a request that changed it):
 * in its place when known, last when new. Pure: the model applies the result.
 */
export function withNode(nodes: readonly NodeInfo[], node: NodeInfo): { nodes: NodeInfo[]; change: NodeListChange } {
  const before = nodes.find((n) => n.id === node.id);
  if (!before) return { nodes: [...nodes, node], change: 'added' };
  const change = sameExcept(before, node, 'podCount') ? (before.podCount === node.podCount ? 'same' : 'podCount') : 'changed';
  return { nodes: nodes.map((n) => (n.id === node.id ? node : n)), change };
}

/** The list without the node; the same list when it was not there. */
export function withoutNode(nodes: readonly NodeInfo[], nodeId: string): NodeInfo[] {
  return nodes.filter((n) => n.id !== nodeId);
}

function sameExcept(a: NodeInfo, b: NodeInfo, key: keyof NodeInfo): boolean {
  return JSON.stringify({ ...a, [key]: 0 }) === JSON.stringify({ ...b, [key]: 0 });
}
