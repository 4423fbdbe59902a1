import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import type { MaskTreeNode } from '../../app/mask/mask-tree';
import { coverage, type Coverage } from '../../app/mask/mask-coverage';

interface Row {
  node: MaskTreeNode;
  depth: number;
  expanded: boolean;
  parent: string | null;
}

/** The rows on screen: expanded branches, or while searching every match with the fields above it. */
function visibleRows(roots: readonly MaskTreeNode[], expanded: ReadonlySet<string>, query: string): Row[] {
  const rows: Row[] = [];
  const q = query.trim().toLowerCase();
  const matches = (n: MaskTreeNode) => n.name.toLowerCase().includes(q) || n.path.toLowerCase().includes(q);
  const hasMatch = new Map<string, boolean>();
  const mark = (n: MaskTreeNode): boolean => {
    let any = matches(n);
    for (const c of n.children) any = mark(c) || any;
    hasMatch.set(n.path, any);
    return any;
  };
  if (q) for (const r of roots) mark(r);
  const walk = (nodes: readonly MaskTreeNode[], depth: number, parent: string | null) => {
    for (const node of nodes) {
      if (q && !hasMatch.get(node.path)) continue;
      // Searching opens every branch that leads to a match (a field matching itself stays closed).
      const open = q ? node.children.some((c) => hasMatch.get(c.path)) : expanded.has(node.path);
      rows.push({ node, depth, expanded: open, parent });
      if (open) walk(node.children, depth + 1, node.path);
    }
  };
  walk(roots, 1, null);
  return rows;
}

const TICK: Record<Coverage, string> = { all: '✓', some: '–', none: '' };
const ARIA_CHECKED: Record<Coverage, 'true' | 'mixed' | 'false'> = { all: 'true', some: 'mixed', none: 'false' };
const TYPE_AHEAD_MS = 700;

/**
 * The pod's fields as an ARIA tree with tri-state checkboxes. Keyboard: arrows move and open or
 * close, Space or Enter ticks, Home and End jump, typing a name jumps to it.
 */
export function MaskTree(props: {
  roots: readonly MaskTreeNode[];
  /** The chosen canonical paths. */
  paths: readonly string[];
  query: string;
  onToggle: (path: string, state: Coverage) => void;
}) {
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(() => new Set(props.roots.map((r) => r.path)));
  const [active, setActive] = useState<string>(props.roots[0]?.path ?? '');
  const typed = useRef({ text: '', at: 0 });
  const rows = useMemo(() => visibleRows(props.roots, expanded, props.query), [props.roots, expanded, props.query]);
  const index = Math.max(0, rows.findIndex((r) => r.node.path === active));
  const current = rows[index];
  const stateOf = (path: string): Coverage => (props.paths.length === 0 ? 'none' : coverage(props.paths, path));

  // A search moves the cursor to the first match, so Space ticks what was searched for.
  useEffect(() => {
    const q = props.query.trim().toLowerCase();
    if (!q) return;
    const first = rows.find((r) => r.node.name.toLowerCase().includes(q) || r.node.path.toLowerCase() === q);
    if (first) setActive(first.node.path);
    // Only when the query changes: ticking must not move the cursor.
  }, [props.query]);
  useEffect(() => {
    document.getElementById(`mask-tree-${current?.node.path ?? ''}`)?.scrollIntoView({ block: 'nearest' });
  }, [current?.node.path]);

  const setOpen = (path: string, open: boolean) =>
    setExpanded((prev) => {
      const next = new Set(prev);
      if (open) next.add(path);
      else next.delete(path);
      return next;
    });

  function onKeyDown(e: KeyboardEvent) {
    if (!current) return;
    const go = (i: number) => setActive(rows[Math.min(rows.length - 1, Math.max(0, i))]!.node.path);
    const expandable = current.node.children.length > 0;
    let handled = true;
    switch (e.key) {
      case 'ArrowDown':
        go(index + 1);
        break;
      case 'ArrowUp':
        go(index - 1);
        break;
      case 'Home':
        go(0);
        break;
      case 'End':
        go(rows.length - 1);
        break;
      case 'ArrowRight':
        if (expandable && !current.expanded) setOpen(current.node.path, true);
        else if (expandable) go(index + 1);
        break;
      case 'ArrowLeft':
        if (current.expanded && !props.query.trim()) setOpen(current.node.path, false);
        else if (current.parent) setActive(current.parent);
        break;
      case ' ':
      case 'Enter':
        props.onToggle(current.node.path, stateOf(current.node.path));
        break;
      default:
        handled = false;
        if (e.key.length === 1 && !e.ctrlKey && !e.metaKey && !e.altKey) {
          // Type-ahead: the next field whose name starts with what was typed just now.
          const now = Date.now();
          typed.current = { text: (now - typed.current.at < TYPE_AHEAD_MS ? typed.current.text : '') + e.key.toLowerCase(), at: now };
          const prefix = typed.current.text;
          const order = [...rows.slice(index + (prefix.length === 1 ? 1 : 0)), ...rows.slice(0, index + 1)];
          const found = order.find((r) => r.node.name.toLowerCase().startsWith(prefix));
          if (found) setActive(found.node.path);
          handled = true;
        }
    }
    if (handled) e.preventDefault();
  }

  return (
    <div
      className="mask-tree"
      role="tree"
      aria-label="Pod fields"
      aria-multiselectable="true"
      tabIndex={0}
      aria-activedescendant={current ? `mask-tree-${current.node.path}` : undefined}
      onKeyDown={onKeyDown}
    >
      {rows.length === 0 && <div className="empty">No field matches “{props.query}”.</div>}
      {rows.map((row) => {
        const { node } = row;
        const state = stateOf(node.path);
        const expandable = node.children.length > 0;
        return (
          <div
            key={node.path}
            id={`mask-tree-${node.path}`}
            role="treeitem"
            aria-label={node.path}
            aria-level={row.depth}
            aria-expanded={expandable ? row.expanded : undefined}
            aria-checked={ARIA_CHECKED[state]}
            aria-selected={node.path === current?.node.path}
            className={`mask-tree-row${node.path === current?.node.path ? ' active' : ''}`}
            style={{ paddingLeft: `${(row.depth - 1) * 16 + 4}px` }}
            onClick={() => setActive(node.path)}
          >
            <span
              className="twisty"
              aria-hidden="true"
              onClick={(e) => {
                e.stopPropagation();
                if (expandable && !props.query.trim()) setOpen(node.path, !row.expanded);
              }}
            >
              {expandable ? (row.expanded ? '▾' : '▸') : ''}
            </span>
            <span
              className={`tick tick-${state}`}
              aria-hidden="true"
              onClick={(e) => {
                e.stopPropagation();
                setActive(node.path);
                props.onToggle(node.path, state);
              }}
            >
              {TICK[state]}
            </span>
            <span className="mono field-name">{node.name}</span>
            <span className="muted mono field-type">{node.type}</span>
            {node.list && <span className="tag" title="A list: a path through it applies to every element">list</span>}
            {node.map && <span className="tag" title="A map: selected whole, never one key">map</span>}
          </div>
        );
      })}
    </div>
  );
}
