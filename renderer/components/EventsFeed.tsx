import { useMemo, useState } from 'react';
import type { FeedLine } from '../../app/contract/pods';
import { formatClock } from '../format/age';

const TYPE_TONE: Record<FeedLine['type'], string> = { ADDED: 'ok', MODIFIED: 'busy', DELETED: 'off', RELIST: 'wait', ERROR: 'bad' };
const SHOWN = 400;

/** The live watch feed: newest first, pausable (the view freezes, the count of new lines grows), filterable. */
export function EventsFeed(props: {
  lines: readonly FeedLine[];
  nodeLabel: (nodeId: string) => string;
  onOpen: (line: FeedLine) => void;
  collapsed: boolean;
  onToggle: () => void;
}) {
  const [frozen, setFrozen] = useState<readonly FeedLine[] | null>(null);
  const [query, setQuery] = useState('');
  const source = frozen ?? props.lines;
  const needle = query.toLowerCase();
  const shown = useMemo(() => {
    const filtered = needle
      ? source.filter((l) => `${l.type} ${l.namespace}/${l.name} ${l.change} ${props.nodeLabel(l.nodeId)}`.toLowerCase().includes(needle))
      : source;
    return filtered.slice(0, SHOWN);
  }, [source, needle, props]);
  const newWhilePaused = frozen ? props.lines.indexOf(frozen[0]!) : 0;

  return (
    <section className={props.collapsed ? 'feed collapsed' : 'feed'} aria-label="Live events">
      <header className="feed-head">
        <button type="button" className="feed-title" aria-expanded={!props.collapsed} onClick={props.onToggle}>
          <span aria-hidden="true">{props.collapsed ? '▸' : '▾'}</span> Events
          <span className="muted small">{props.lines.length}</span>
        </button>
        {!props.collapsed && (
          <>
            <input type="search" className="search small" placeholder="Filter events" aria-label="Filter events" value={query} onChange={(e) => setQuery(e.target.value)} />
            <button type="button" className={frozen ? 'button small primary' : 'button small'} aria-pressed={frozen !== null} onClick={() => setFrozen(frozen ? null : props.lines)}>
              {frozen ? `Resume${newWhilePaused > 0 ? ` (${newWhilePaused} new)` : ''}` : 'Pause'}
            </button>
          </>
        )}
      </header>
      {!props.collapsed && (
        <ol className="feed-lines" aria-label="Event lines">
          {shown.length === 0 && <li className="muted feed-empty">{source.length ? 'No event matches the filter.' : 'Waiting for pod changes…'}</li>}
          {shown.map((l, i) => (
            <li key={`${l.time}-${l.uid}-${i}`} className="feed-line">
              <span className="feed-time mono">{formatClock(l.time)}</span>
              <span className="feed-node">{props.nodeLabel(l.nodeId)}</span>
              <span className={`feed-type tone-text-${TYPE_TONE[l.type]}`}>{l.type}</span>
              <button type="button" className="feed-pod link mono" onClick={() => props.onOpen(l)}>
                {l.namespace}/{l.name}
              </button>
              <span className="feed-change">{l.change}</span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
