import { useVirtualizer } from '@tanstack/react-virtual';
import { useMemo, useRef, useState, type CSSProperties, type ReactElement } from 'react';
import type { NodeInfo } from '../../app/contract/nodes';
import { describeSource } from '../../app/source/kinds/source-kinds';
import { describeNodeState, STATE_CATEGORIES, type StateCategory } from '../format/node-state';
import { useShortcuts } from '../keys/use-shortcuts';
import { sidebarView, type GroupCounts, type SidebarRow } from '../state/sidebar-rows';
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

const CATEGORY_LABEL: Record<StateCategory, string> = {
  live: 'live',
  connecting: 'connecting',
  reconnecting: 'reconnecting',
  error: 'failed',
  offline: 'offline',
  disconnected: 'disconnected',
};

/** A group heading's counts, in this order; a state no node of the group is in is left out. */
const GROUP_COUNTS: [keyof GroupCounts, string][] = [
  ['live', 'live'],
  ['connecting', 'connecting'],
  ['failed', 'failed'],
  ['offline', 'offline'],
];
/** Estimated heights for the virtual list before a row is measured: a node's state may take a few lines. */
const GROUP_ROW_PX = 44;
const NODE_ROW_PX = 50;

/** What a virtual row's element carries: its place in the list, and the ref that measures its height. */
interface RowPlace {
  'data-index': number;
  ref: (element: Element | null) => void;
  style: CSSProperties;
}

/**
 * The rendered rows, a group's nodes in a list of their own named for it (each still placed on the one
 * virtual list: the wrapper has no box of its own), so a screen reader says which group a node is in.
 */
function groupRuns(rendered: { group: string | undefined; element: ReactElement }[]): ReactElement[] {
  const out: ReactElement[] = [];
  for (let i = 0; i < rendered.length; ) {
    const { group, element } = rendered[i]!;
    if (group === undefined) {
      out.push(element);
      i++;
      continue;
    }
    const members: ReactElement[] = [];
    for (; i < rendered.length && rendered[i]!.group === group; i++) members.push(rendered[i]!.element);
    out.push(
      <li key={`members:${group}`} className="node-group-members">
        <ul role="list" aria-label={`Group ${group || 'Ungrouped'}`}>
          {members}
        </ul>
      </li>,
    );
  }
  return out;
}

const rowKey = (row: SidebarRow): string => (row.kind === 'group' ? `group:${row.group}` : row.node.id);

export function NodesSidebar(props: Props) {
  const now = useNow(1000);
  const hasDemo = props.nodes.some((n) => n.simulated);
  const announcement = useNodeAnnouncement(props.nodes);
  const [query, setQuery] = useState('');
  const [stateFilter, setStateFilter] = useState<StateCategory | null>(null);
  const [toggled, setToggled] = useState<ReadonlyMap<string, boolean>>(new Map());
  const view = useMemo(
    () => sidebarView(props.nodes, { search: query, stateFilter, toggled, selectedId: props.selectedId }),
    [props.nodes, query, stateFilter, toggled, props.selectedId],
  );
  const { shown, counts, rows } = view;
  const rowsOnly = useMemo(() => props.nodes.filter((n) => n.rowsOnly).length, [props.nodes]);
  const checked = new Set(props.checkedIds);
  const many = props.nodes.length > 1;
  const searchRef = useRef<HTMLInputElement>(null);
  const searchable = props.nodes.length > 5;
  useShortcuts({
    findNode: searchable
      ? () => {
          searchRef.current?.focus();
          searchRef.current?.select();
        }
      : undefined,
  });
  // Only the rows on screen are rendered: a thousand nodes cost what thirty do, every second's tick included.
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: (i) => (rows[i]?.kind === 'group' ? GROUP_ROW_PX : NODE_ROW_PX),
    getItemKey: (i) => rowKey(rows[i]!),
    overscan: 6,
  });

  const item = (node: NodeInfo, place: RowPlace) => {
    const state = describeNodeState(node.state, now);
    const selected = node.id === props.selectedId;
    const active = node.state.phase !== 'disconnected' && node.state.phase !== 'error';
    return (
      <li key={node.id} {...place} className={`node-item${selected ? ' selected' : ''}${checked.has(node.id) ? ' checked' : ''}`}>
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

  const groupHeading = (row: Extract<SidebarRow, { kind: 'group' }>, place: RowPlace) => {
    const name = row.group || 'Ungrouped';
    const states = GROUP_COUNTS.filter(([k]) => row.counts[k] > 0);
    return (
      <li key={`group:${row.group}`} {...place} className="node-group-head">
        <button
          type="button"
          className="group-toggle"
          aria-expanded={row.expanded}
          aria-label={`${name}, ${row.size} node${row.size === 1 ? '' : 's'}${states.length ? `: ${states.map(([k, label]) => `${row.counts[k]} ${label}`).join(', ')}` : ''}`}
          onClick={() => setToggled((t) => new Map(t).set(row.group, !row.expanded))}
        >
          <span aria-hidden="true">{row.expanded ? '▾' : '▸'}</span> <span className="group-name">{name}</span> <span className="muted">{row.size}</span>
          <span className="group-counts" aria-hidden="true">
            {states.map(([k, label]) => (
              <span key={k} className={`group-count count-${k}`} title={`${row.counts[k]} ${label}`}>
                {row.counts[k]} {label}
              </span>
            ))}
          </span>
        </button>
        {row.size > 1 && (
          <button type="button" className="link-button" aria-label={`Include the group ${name}`} onClick={() => props.onSelectMany(row.nodeIds)}>
            include
          </button>
        )}
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
      {rowsOnly > 0 && (
        <p className="muted small sidebar-note" role="note" title={'More nodes are open than "Keep rows only above" in Settings. No pod history is kept for them.'}>
          {rowsOnly === 1 ? '1 node keeps' : `${rowsOnly} nodes keep`} rows only: a pod you open is read from its node then.
        </p>
      )}
      {searchable && (
        <input
          ref={searchRef}
          className="search node-search"
          type="search"
          placeholder="Search nodes  (f)"
          aria-label="Search nodes"
          aria-keyshortcuts="f"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          // Enter opens the first node found, so a node is reached by typing part of its name.
          onKeyDown={(e) => {
            if (e.key === 'Enter' && shown[0]) props.onSelect(shown[0].id);
          }}
        />
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
      <div ref={scrollRef} className="node-list">
        {shown.length === 0 && props.nodes.length > 0 && <p className="muted small node-none">No node matches.</p>}
        <ul className="node-list-rows" role="list" aria-label={`${shown.length} of ${props.nodes.length} nodes`} style={{ height: virtualizer.getTotalSize() }}>
          {groupRuns(
            virtualizer.getVirtualItems().map((v) => {
              const row = rows[v.index]!;
              const place: RowPlace = { 'data-index': v.index, ref: virtualizer.measureElement, style: { transform: `translateY(${v.start}px)` } };
              return { group: row.kind === 'node' ? row.group : undefined, element: row.kind === 'node' ? item(row.node, place) : groupHeading(row, place) };
            }),
          )}
        </ul>
      </div>
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
