/**
 * What the window shows: one node (or, with two or more ticked, the view over all of them), the pod
 * selected in its table and the pod open beside it. Pure: the window keeps it in React state.
 */
export interface WindowSelection {
  /** The node picked; null until the user picks one (the window then follows the first node). */
  nodeId: string | null;
  /** The sources ticked together (sidebar checkboxes, a group): with two or more, the view over all of them. */
  checked: string[];
  selectedUid: string | null;
  openUid: string | null;
}

export const NO_SELECTION: WindowSelection = { nodeId: null, checked: [], selectedUid: null, openUid: null };

/** Shows a node alone, nothing in it selected. */
export function selectNode(_s: WindowSelection, nodeId: string): WindowSelection {
  return { nodeId, checked: [], selectedUid: null, openUid: null };
}

/** The ticked sources still in the list (one removed meanwhile drops out). */
export function checkedOf(s: WindowSelection, exists: (nodeId: string) => boolean): string[] {
  return s.checked.filter(exists);
}

/** Ticks or unticks a source; one left ticked alone is shown as the node it is. */
export function toggleChecked(s: WindowSelection, nodeId: string, exists: (nodeId: string) => boolean): WindowSelection {
  const checked = checkedOf(s, exists);
  const next = checked.includes(nodeId) ? checked.filter((id) => id !== nodeId) : [...checked, nodeId];
  return { ...s, checked: next, nodeId: next.length === 1 ? next[0]! : s.nodeId };
}

export function setChecked(s: WindowSelection, nodeIds: string[]): WindowSelection {
  return { ...s, checked: nodeIds };
}

/** Selects a pod in the table; an open detail follows the selection. */
export function selectPod(s: WindowSelection, uid: string): WindowSelection {
  return { ...s, selectedUid: uid, openUid: s.openUid ? uid : null };
}

/** Selects a pod and opens its detail. */
export function openPod(s: WindowSelection, uid: string): WindowSelection {
  return { ...s, selectedUid: uid, openUid: uid };
}

export function closePod(s: WindowSelection): WindowSelection {
  return { ...s, openUid: null };
}

/** Goes to a pod of any node (from the events feed): that node alone, the pod open. */
export function showPod(s: WindowSelection, nodeId: string, uid: string): WindowSelection {
  return openPod(selectNode(s, nodeId), uid);
}
