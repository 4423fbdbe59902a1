import { useVirtualizer } from '@tanstack/react-virtual';
import { useMemo, useRef, useState } from 'react';
import type { FeedLine } from '../../app/contract/pods';
import { timeText, timeTitle, zoneText } from '../format/time-text';
import { newSincePause } from '../state/feed-buffer';

const TYPE_TONE: Record<FeedLine['type'], string> = { ADDED: 'ok', MODIFIED: 'busy', DELETED: 'off', RELIST: 'wait', ERROR: 'bad' };
const LINE_HEIGHT = 18;
// A field mask may leave the namespace out.
const podName = (l: FeedLine) => (l.namespace ? `${l.namespace}/${l.name}` : l.name);

/**
 * The live watch feed: newest first, pausable (the view freezes, the count of new lines grows),
 * filterable, virtualized (only visible lines render, so 1,000 events/s cost one small render per frame).
 */
export function EventsFeed(props: {
  lines: readonly FeedLine[];
  /** How many lines the buffer keeps: past it, the count of new lines is only known to exceed it. */
  limit: number;
  nodeLabel: (nodeId: string) => string;
  onOpen: (line: FeedLine) => void;
  canOpen: (line: FeedLine) => boolean;
  collapsed: boolean;
  onToggle: () => void;
}) {
  const [frozen, setFrozen] = useState<readonly FeedLine[] | null>(null);
  const [query, setQuery] = useState('');
  const source = frozen ?? props.lines;
  const needle = query.toLowerCase();
  const { nodeLabel } = props;
  const shown = useMemo(
    () => (needle ? source.filter((l) => `${l.type} ${l.namespace}/${l.name} ${l.change} ${nodeLabel(l.nodeId)}`.toLowerCase().includes(needle)) : source),
    [source, needle, nodeLabel],
  );
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({ count: shown.length, getScrollElement: () => scrollRef.current, estimateSize: () => LINE_HEIGHT, overscan: 8 });
  const newWhilePaused = frozen ? newSincePause(props.lines, frozen[0], props.limit) : null;

  return (
    <section className={props.collapsed ? 'feed collapsed' : 'feed'} aria-label="Live events">
      <header className="feed-head">
        <button type="button" className="feed-title" aria-expanded={!props.collapsed} onClick={props.onToggle}>
          <span aria-hidden="true">{props.collapsed ? '▸' : '▾'}</span> Events
          <span className="muted small">{props.lines.length}</span>
        </button>
        {!props.collapsed && (
          <>
            {/* Said once here, where times scroll past all the time; every view writes them this way. */}
            <span className="muted small feed-zone" title="Every time in Nodescope is written this way: 24-hour, with the date only when it is not today">
              {zoneText()}
            </span>
            <input type="search" className="search small" placeholder="Filter events" aria-label="Filter events" value={query} onChange={(e) => setQuery(e.target.value)} />
            <button type="button" className={frozen ? 'button small primary' : 'button small'} aria-pressed={frozen !== null} onClick={() => setFrozen(frozen ? null : props.lines)}>
              {frozen ? `Resume${newWhilePaused ? ` (${newWhilePaused} new)` : ''}` : 'Pause'}
            </button>
          </>
        )}
      </header>
      {!props.collapsed && (
        <div ref={scrollRef} className="feed-lines">
          {shown.length === 0 && <p className="muted feed-empty">{source.length ? 'No event matches the filter.' : 'Waiting for pod changes…'}</p>}
          <ol className="feed-canvas" aria-label="Event lines" style={{ height: virtualizer.getTotalSize() }}>
            {virtualizer.getVirtualItems().map((item) => {
              const l = shown[item.index]!;
              return (
                <li key={item.index} className="feed-line" style={{ transform: `translateY(${item.start}px)` }}>
                  <span className="feed-time mono" title={timeTitle(l.time)}>
                    {timeText(l.time)}
                  </span>
                  <span className="feed-node">{nodeLabel(l.nodeId)}</span>
                  <span className={`feed-type tone-text-${TYPE_TONE[l.type]}`}>{l.type}</span>
                  {/* Only pods still on the node open; relist lines name no pod. */}
                  {props.canOpen(l) ? (
                    <button type="button" className="feed-pod link mono" onClick={() => props.onOpen(l)}>
                      {podName(l)}
                    </button>
                  ) : (
                    <span className="feed-pod mono muted">{l.uid ? podName(l) : '—'}</span>
                  )}
                  <span className="feed-change">{l.change}</span>
                </li>
              );
            })}
          </ol>
        </div>
      )}
    </section>
  );
}
