import { useState } from 'react';
import type { NodeInfo } from '../../app/contract/nodes';
import { describeSource, groupOfSource, isUserAdded } from '../../app/source/kinds/source-kinds';
import { describeNodeState, STATE_CATEGORIES, stateCategory, type StateCategory } from '../format/node-state';
import { editableSpec } from './EditNodeDialog';
import { useNow } from './use-model';
import { useNodeAnnouncement } from './use-node-announcement';

interface Props {
  nodes: readonly NodeInfo[];
  selectedId: string | null;
  podCount: (nodeId: string) => number;
  onSelect: (nodeId: string) => void;
  /** The sources chosen for the table over many sources and the comparison (two or more). */
  checkedIds: readonly string[];
  onToggle: (nodeId: string) => void;
  onSelectMany: (nodeIds: string[]) => void;
  onAdd: () => void;
  onAddMany: () => void;
  onStartDemo: () => void;
  onConnect: (nodeId: string) => void;
  onDisconnect: (nodeId: string) => void;
  onRemove: (nodeId: string) => void;
  /** Opens the node's settings to change them in place; the demo node and files have none. */
  onEdit: (nodeId: string) => void;
  onOpenFiles: () => void;
}

/** A source's group: a node's own, files and the demo under theirs, so a hundred nodes stay in sections. */
export const groupOf = (node: NodeInfo): string => groupOfSource(node.spec);

const CATEGORY_LABEL: Record<StateCategory, string> = {
  live: 'live',
  connecting: 'connecting',
  reconnecting: 'reconnecting',
  error: 'error',
  offline: 'offline',
  disconnected: 'disconnected',
};

function matchesSearch(node: NodeInfo, query: string): boolean {
  if (!query) return true;
  const s = node.spec;
  // How it is reached too: a node labelled by the user is still found by its host.
  const text = [node.label, describeSource(s), groupOf(node)].join(' ').toLowerCase();
  return query.toLowerCase().split(/\s+/).every((word) => text.includes(word));
}

export function NodesSidebar(props: Props) {
  const now = useNow(1000);
  const hasDemo = props.nodes.some((n) => n.simulated);
  const announcement = useNodeAnnouncement(props.nodes);
  const [query, setQuery] = useState('');
  const [stateFilter, setStateFilter] = useState<StateCategory | null>(null);
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(new Set());
  const counts = new Map<StateCategory, number>();
  for (const node of props.nodes) counts.set(stateCategory(node.state), (counts.get(stateCategory(node.state)) ?? 0) + 1);
  const shown = props.nodes.filter((n) => matchesSearch(n, query.trim()) && (stateFilter === null || stateCategory(n.state) === stateFilter));
  // Sections only once the user has named a group: a few nodes and files stay one plain list.
  const grouped = props.nodes.some((n) => isUserAdded(n.spec) && n.spec.group);
  const sectionOf = (node: NodeInfo) => (grouped ? groupOf(node) : '');
  const groups = new Map<string, NodeInfo[]>();
  for (const node of shown) groups.set(sectionOf(node), [...(groups.get(sectionOf(node)) ?? []), node]);
  // Ungrouped first, then groups by name.
  const sections = [...groups.entries()].sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b)));
  const checked = new Set(props.checkedIds);
  const many = props.nodes.length > 1;

  const item = (node: NodeInfo) => {
    const state = describeNodeState(node.state, now);
    const selected = node.id === props.selectedId;
    const active = node.state.phase !== 'disconnected' && node.state.phase !== 'error';
    return (
      <li key={node.id} className={`node-item${selected ? ' selected' : ''}${checked.has(node.id) ? ' checked' : ''}`}>
        {many && (
          <input
            type="checkbox"
            className="node-check"
            aria-label={`Include ${node.label}`}
            title="Include in the table over several sources and the comparison"
            checked={checked.has(node.id)}
            onChange={() => props.onToggle(node.id)}
          />
        )}
        <button
          type="button"
          className="node-main"
          aria-current={selected ? 'true' : undefined}
          aria-label={`Node ${node.label}: ${state.title}`}
          title={describeSource(node.spec)}
          data-testid={`node-${node.id}`}
          onClick={(e) => (e.ctrlKey || e.metaKey ? props.onToggle(node.id) : props.onSelect(node.id))}
        >
          <span className={`dot tone-${state.tone}`} aria-hidden="true" />
          <span className="node-text">
            <span className="node-label">
              <span className="node-label-text">{node.label}</span>
            </span>
            <span className={`node-state tone-text-${state.tone}`}>
              {state.title}
              {(node.state.phase === 'live' || node.state.phase === 'silent' || node.state.phase === 'catchingUp' || node.state.phase === 'offline') && ` · ${props.podCount(node.id)} pods`}
              {node.state.phase === 'offline' && <span className="tag tag-offline">offline</span>}
              {node.simulated && <span className="tag tag-sim">simulated</span>}
              {node.readFrom === 'rest' && <span className="tag tag-rest" title="Read from the kubelet's REST API">rest</span>}
            </span>
            {state.detail && <span className="node-detail">{state.detail}</span>}
          </span>
        </button>
        <span className="node-actions">
          {node.state.phase === 'offline' ? null : active ? (
            <button type="button" className="icon-button" aria-label={`Disconnect ${node.label}`} title="Disconnect" onClick={() => props.onDisconnect(node.id)}>
              ⏏
            </button>
          ) : (
            <button type="button" className="icon-button" aria-label={`Connect ${node.label}`} title="Connect" onClick={() => props.onConnect(node.id)}>
              ↻
            </button>
          )}
          {editableSpec(node) && (
            <button type="button" className="icon-button" aria-label={`Edit ${node.label}`} title="Edit… (its connection settings and group)" onClick={() => props.onEdit(node.id)}>
              ✎
            </button>
          )}
          <button type="button" className="icon-button" aria-label={`Remove ${node.label}`} title="Remove" onClick={() => props.onRemove(node.id)}>
            ✕
          </button>
        </span>
      </li>
    );
  };

  return (
    <nav className="sidebar" aria-label="Nodes">
      <div className="brand">
        <span className="brand-mark" aria-hidden="true" />
        <span className="brand-name">Nodescope</span>
      </div>
      {many && (
        <div className="state-counts" role="group" aria-label="Nodes by state">
          {STATE_CATEGORIES.filter((c) => counts.has(c)).map((c) => (
            <button
              key={c}
              type="button"
              className={`count-chip count-${c}`}
              aria-pressed={stateFilter === c}
              title={stateFilter === c ? 'Show every node' : `Show only the ${CATEGORY_LABEL[c]} nodes`}
              onClick={() => setStateFilter(stateFilter === c ? null : c)}
            >
              <strong>{counts.get(c)}</strong> {CATEGORY_LABEL[c]}
            </button>
          ))}
        </div>
      )}
      {props.nodes.length > 5 && (
        <input className="search node-search" type="search" placeholder="Search nodes" aria-label="Search nodes" value={query} onChange={(e) => setQuery(e.target.value)} />
      )}
      <div className="sidebar-section-title">
        <span>Nodes</span>
        <span>
          {many && shown.length > 1 && (
            <button type="button" className="link-button" onClick={() => props.onSelectMany(shown.map((n) => n.id))} title="Include every node shown">
              all
            </button>
          )}
          <button type="button" className="icon-button" aria-label="Add node" title="Add node" onClick={props.onAdd}>
            +
          </button>
        </span>
      </div>
      <ul className="node-list" role="list">
        {shown.length === 0 && props.nodes.length > 0 && <li className="muted small node-none">No node matches.</li>}
        {sections.map(([group, members]) =>
          group === '' && sections.length === 1 ? (
            members.map(item)
          ) : (
            <li key={`group:${group}`} className="node-group">
              <div className="node-group-head">
                <button
                  type="button"
                  className="group-toggle"
                  aria-expanded={!collapsed.has(group)}
                  onClick={() => setCollapsed((c) => new Set(c.has(group) ? [...c].filter((g) => g !== group) : [...c, group]))}
                >
                  <span aria-hidden="true">{collapsed.has(group) ? '▸' : '▾'}</span> {group || 'Ungrouped'}{' '}
                  <span className="muted">
                    {/* Files are never live: a group counts its sources that show their pods (live, or read from a file). */}
                    {members.filter((m) => m.state.phase === 'live' || m.state.phase === 'offline').length}/{members.length}
                  </span>
                </button>
                {members.length > 1 && (
                  <button type="button" className="link-button" aria-label={`Include the group ${group || 'Ungrouped'}`} onClick={() => props.onSelectMany(members.map((m) => m.id))}>
                    include
                  </button>
                )}
              </div>
              {!collapsed.has(group) && (
                <ul className="node-list-inner" role="list" aria-label={`Group ${group || 'Ungrouped'}`}>
                  {members.map(item)}
                </ul>
              )}
            </li>
          ),
        )}
      </ul>
      <div className="sr-only" role="status">
        <span key={announcement.serial}>{announcement.text}</span>
      </div>
      <div className="sidebar-foot">
        <button type="button" className="button primary" onClick={props.onAdd}>
          Add node…
        </button>
        <button type="button" className="button" onClick={props.onAddMany} title="Add every host an ssh_config pattern matches, or a list of hosts">
          Add several…
        </button>
        <button type="button" className="button" onClick={props.onOpenFiles} title="Open a snapshot or recording file (or drop one on the window)">
          Open snapshot…
        </button>
        {!hasDemo && (
          <button type="button" className="button" onClick={props.onStartDemo}>
            Start demo node
          </button>
        )}
      </div>
    </nav>
  );
}
