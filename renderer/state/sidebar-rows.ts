/**
 * What the nodes sidebar shows, as one flat list of rows (group headings and nodes) that the sidebar
 * virtualises: with a thousand nodes only the rows on screen are rendered. Pure, so it is tested without a
 * page: the search, the state filter, which groups are open, and the counts by state, overall and per group.
 */
import type { NodeInfo } from '../../app/contract/nodes';
import { describeSource, groupOfSource, isUserAdded } from '../../app/source/kinds/source-kinds';
import { stateCategory, type StateCategory } from '../format/node-state';

/** A group of more nodes than this starts collapsed (its heading still counts them by state). */
export const COLLAPSED_PAST = 20;

/** A source's group: a node's own, files and the demo under theirs, so a hundred nodes stay in sections. */
export const groupOf = (node: NodeInfo): string => groupOfSource(node.spec);

/** A group's nodes by state, as its heading shows them. */
export interface GroupCounts {
  live: number;
  /** Connecting, or reconnecting after it was live. */
  connecting: number;
  /** In error: waits for the user. */
  failed: number;
  /** Files: never live, their pods shown. */
  offline: number;
}

export type SidebarRow =
  | { kind: 'group'; group: string; size: number; counts: GroupCounts; expanded: boolean; nodeIds: string[] }
  /** `group`: the group it is listed under, when the list has groups. */
  | { kind: 'node'; node: NodeInfo; group?: string };

export interface SidebarView {
  /** The nodes the search and the state filter let through, in list order. */
  shown: NodeInfo[];
  /** Every node (not only those shown) by state, for the state chips. */
  counts: ReadonlyMap<StateCategory, number>;
  rows: SidebarRow[];
}

export interface SidebarQuery {
  search: string;
  stateFilter: StateCategory | null;
  /** Groups the user opened (true) or closed (false); any other group is open unless it is large. */
  toggled: ReadonlyMap<string, boolean>;
  /** Its group opens by default, so the node the window shows is in view. */
  selectedId: string | null;
}

/** The node's name, how it is reached and its group contain every word of the search. */
export function matchesSearch(node: NodeInfo, search: string): boolean {
  const words = search.trim().toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return true;
  // How it is reached too: a node labelled by the user is still found by its host.
  const text = [node.label, describeSource(node.spec), groupOf(node)].join(' ').toLowerCase();
  return words.every((word) => text.includes(word));
}

function countsOf(members: readonly NodeInfo[]): GroupCounts {
  const counts: GroupCounts = { live: 0, connecting: 0, failed: 0, offline: 0 };
  for (const node of members) {
    const category = stateCategory(node.state);
    if (category === 'live') counts.live++;
    else if (category === 'connecting' || category === 'reconnecting') counts.connecting++;
    else if (category === 'error') counts.failed++;
    else if (category === 'offline') counts.offline++;
  }
  return counts;
}

export function sidebarView(nodes: readonly NodeInfo[], q: SidebarQuery): SidebarView {
  const counts = new Map<StateCategory, number>();
  for (const node of nodes) counts.set(stateCategory(node.state), (counts.get(stateCategory(node.state)) ?? 0) + 1);
  const shown = nodes.filter((n) => matchesSearch(n, q.search) && (q.stateFilter === null || stateCategory(n.state) === q.stateFilter));
  // Sections only once the user has named a group: a few nodes and files stay one plain list.
  const grouped = nodes.some((n) => isUserAdded(n.spec) && n.spec.group);
  if (!grouped) return { shown, counts, rows: shown.map((node) => ({ kind: 'node', node })) };
  const groups = new Map<string, NodeInfo[]>();
  for (const node of shown) {
    const group = groupOf(node);
    const members = groups.get(group);
    if (members) members.push(node);
    else groups.set(group, [node]);
  }
  // Ungrouped first, then groups by name.
  const sections = [...groups.entries()].sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b)));
  if (sections.length === 1 && sections[0]![0] === '') return { shown, counts, rows: shown.map((node) => ({ kind: 'node', node })) };
  // Searching or filtering by state opens the groups: what was asked for is in view.
  const narrowed = q.search.trim() !== '' || q.stateFilter !== null;
  const rows: SidebarRow[] = [];
  for (const [group, members] of sections) {
    const expanded = q.toggled.get(group) ?? (narrowed || members.length <= COLLAPSED_PAST || members.some((m) => m.id === q.selectedId));
    rows.push({ kind: 'group', group, size: members.length, counts: countsOf(members), expanded, nodeIds: members.map((m) => m.id) });
    if (expanded) for (const node of members) rows.push({ kind: 'node', node, group });
  }
  return { shown, counts, rows };
}
