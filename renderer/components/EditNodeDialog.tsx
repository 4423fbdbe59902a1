import type { NodeInfo } from '../../app/contract/nodes';
import { isUserAdded } from '../../app/source/kinds/source-kinds';
import type { AppModel } from '../state/app-model';
import { AddNodeDialog, type EditedNode } from './AddNodeDialog';

/** The settings of a node the user added (SSH or a socket here); null for the demo node and files, which have none to edit. */
export function editableSpec(node: NodeInfo): EditedNode['spec'] | null {
  return isUserAdded(node.spec) ? node.spec : null;
}

/** Edit… above a node's pods, for a node with settings to edit. */
export function EditNodeButton(props: { node: NodeInfo; onEdit: (nodeId: string) => void }) {
  if (!editableSpec(props.node)) return null;
  return (
    <button type="button" className="button" onClick={() => props.onEdit(props.node.id)} title="Change its connection settings or group; it reconnects">
      Edit…
    </button>
  );
}

/**
 * The Add node dialog on a node's settings, titled Edit node: saving reconnects the node in place
 * (same id, mask, group unless changed, place in the list); Esc or Cancel changes nothing.
 */
export function EditNodeDialog(props: { model: AppModel; node: NodeInfo | undefined; onClose: () => void; onSaved: (message: string) => void }) {
  // A node removed meanwhile (or one with nothing to edit) has no dialog.
  const spec = props.node && editableSpec(props.node);
  if (!props.node || !spec) return null;
  return (
    <AddNodeDialog
      model={props.model}
      onClose={props.onClose}
      editing={{
        nodeId: props.node.id,
        spec,
        onSaved: ({ node, historyCleared }) =>
          props.onSaved(
            historyCleared
              ? `Saved ${node.label}, reconnecting. Its pod history was cleared: the host or port changed, so it is another machine.`
              : `Saved ${node.label}, reconnecting; its pod history is kept.`,
          ),
      }}
    />
  );
}
