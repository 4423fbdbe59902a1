import type { Bridge } from '../../app/contract/bridge';
import type { NodeInfo } from '../../app/contract/nodes';
import { isOffline, isUserAdded, sourceKind } from '../../app/source/kinds/source-kinds';

/**
 * Adds a removed node back as it was (undo): reached the same way under the same label, with the
 * same field mask; the demo node is started again, a file opened again. It comes back as a new node,
 * so it connects afresh.
 */
export async function restoreNode(bridge: Bridge, node: NodeInfo): Promise<NodeInfo> {
  const added = await addAgain(bridge, node);
  if (node.mask) await bridge.request('nodes.setMask', { nodeId: added.id, mask: node.mask });
  return added;
}

async function addAgain(bridge: Bridge, node: NodeInfo): Promise<NodeInfo> {
  const spec = node.spec;
  switch (sourceKind(spec).addAgain) {
    case 'add':
      if (!isUserAdded(spec)) throw new Error(`${node.label} cannot be added again: add it with Add node.`);
      return bridge.request('nodes.add', { ...spec, label: node.label });
    case 'startDemo':
      return bridge.request('nodes.startDemo', {});
    case 'openFile': {
      if (!isOffline(spec)) throw new Error(`${node.label} has no file to open again.`);
      // An uploaded file has only its name here: there is nothing to read it again from.
      if (!spec.file.startsWith('/')) throw new Error(`${spec.file} was uploaded; open it again with "Open snapshot…".`);
      const opened = await bridge.request('sources.open', { paths: [spec.file] });
      if (opened.status !== 'opened' || !opened.nodes[0]) throw new Error(`${spec.file} could not be opened again.`);
      return opened.nodes[0];
    }
  }
}
