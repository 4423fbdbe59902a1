import { useEffect, useState } from 'react';
import type { NodeInfo } from '../../app/contract/nodes';
import type { AppModel } from '../state/app-model';
import * as sel from '../state/window-selection';

/** The window's selection (state/window-selection.ts) over the model's nodes, with the moves the views make. */
export interface WindowSelectionView {
  /** The node shown: the one picked, else the first (a removed node hands over to the next). */
  node: NodeInfo | undefined;
  /** The ticked sources still in the list; two or more show the view over all of them. */
  checked: string[];
  fleet: boolean;
  selectedUid: string | null;
  openUid: string | null;
  selectNode: (nodeId: string) => void;
  toggleChecked: (nodeId: string) => void;
  setChecked: (nodeIds: string[]) => void;
  selectPod: (uid: string) => void;
  openPod: (uid: string) => void;
  closePod: () => void;
  showPod: (nodeId: string, uid: string) => void;
}

export function useWindowSelection(model: AppModel): WindowSelectionView {
  const [s, set] = useState<sel.WindowSelection>(sel.NO_SELECTION);
  const exists = (id: string) => model.node(id) !== undefined;
  const node = model.node(s.nodeId) ?? model.nodes[0];
  // Follow the first node until the user picks one.
  const nodeId = node?.id ?? null;
  useEffect(() => {
    if (nodeId !== s.nodeId) set((was) => ({ ...was, nodeId }));
  }, [nodeId, s.nodeId]);
  const checked = sel.checkedOf(s, exists);
  return {
    node,
    checked,
    fleet: checked.length >= 2,
    selectedUid: s.selectedUid,
    openUid: s.openUid,
    selectNode: (id) => set((was) => sel.selectNode(was, id)),
    toggleChecked: (id) => set((was) => sel.toggleChecked(was, id, exists)),
    setChecked: (ids) => set((was) => sel.setChecked(was, ids)),
    selectPod: (uid) => set((was) => sel.selectPod(was, uid)),
    openPod: (uid) => set((was) => sel.openPod(was, uid)),
    closePod: () => set(sel.closePod),
    showPod: (id, uid) => set((was) => sel.showPod(was, id, uid)),
  };
}
