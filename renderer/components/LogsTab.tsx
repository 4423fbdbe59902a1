import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useMemo, useRef, useState } from 'react';
import type { Bridge } from '../../app/contract/bridge';
import { LOG_LINES_MAX, LOG_READ_CHARS_MAX } from '../../app/contract/logs';
import { downloadText } from '../bridge/download-text';
import { ansiPlain, ansiRuns } from '../format/ansi-text';
import { usePodLog, type Captured } from './use-pod-log';
import { useFind } from '../hooks/use-find';
import { MarkedRuns } from './MarkedRuns';

/** What is said of lines kept when their instance ended (by a recording, or the live pod's history): which instance, how it ended. */
function capturedText(c: Captured): string {
  const how = [c.reason, c.exitCode !== undefined ? `exit code ${c.exitCode}` : undefined].filter(Boolean).join(', ');
  const ended = c.finishedAt ? ` at ${new Date(c.finishedAt).toLocaleString()}` : '';
  return `Captured at the crash: the end of instance ${c.instance}'s log, kept by ${c.by === 'recording' ? 'the recording' : 'the pod\'s history'} when it ended${c.by === 'history' ? ' (the node no longer has the file)' : ''}${how ? ` (${how})` : ''}${ended}${c.truncated ? '; older lines were not kept' : ''}.`;
}

const LINE_HEIGHT = 18;
const TAIL_CHOICES = [100, 1000, 10_000, LOG_LINES_MAX];

/** The line's colour runs, with the search's matches marked. */
function LineText(props: { line: string; needle: string }) {
  const runs = ansiRuns(props.line).map((run) => ({
    text: run.text,
    className: [run.fg !== undefined ? `ansi-${run.fg}` : '', run.bold ? 'ansi-bold' : ''].join(' ').trim() || undefined,
  }));
  return <MarkedRuns runs={runs} needle={props.needle} />;
}

/**
 * A pod container's log, read from the node's files: container, previous instance, follow, wrap, times,
 * search with next/previous, copy and save. Lines are text (ANSI colours shown as colours, every other
 * control dropped), virtualised so 100,000 of them scroll.
 */
export function LogsTab(props: { bridge: Bridge; nodeId: string; uid: string; fileName: string; containers: string[]; preferredContainer: string | undefined; live: boolean }) {
  const [container, setContainer] = useState<string | undefined>(props.preferredContainer);
  const [previous, setPrevious] = useState(false);
  const [follow, setFollow] = useState(props.live);
  const [wrap, setWrap] = useState(false);
  const [timestamps, setTimestamps] = useState(false);
  const [tailLines, setTailLines] = useState(1000);
  const [notice, setNotice] = useState<string | null>(null);
  // The pod's detail arrives after the tab opens: its preferred container is taken until the user picks one.
  const [picked, setPicked] = useState(false);
  useEffect(() => {
    if (!picked) setContainer(props.preferredContainer);
  }, [props.preferredContainer, picked]);

  const log = usePodLog(props.bridge, { nodeId: props.nodeId, uid: props.uid, container, previous, timestamps, tailLines, follow: follow && !previous });
  const { lines, version, dropped } = log;

  // Plain text for search, copy and save, extended as a follow appends and shortened as the buffer drops its oldest.
  const plainRef = useRef<{ source: string[]; dropped: number; plain: string[] }>({ source: [], dropped: 0, plain: [] });
  const plain = useMemo(() => {
    let cache = plainRef.current;
    if (cache.source !== lines) cache = { source: lines, dropped: 0, plain: [] };
    if (dropped > cache.dropped) cache = { ...cache, dropped, plain: cache.plain.slice(dropped - cache.dropped) };
    for (let i = cache.plain.length; i < lines.length; i++) cache.plain.push(ansiPlain(lines[i]!));
    plainRef.current = cache;
    return cache.plain;
  }, [lines, version, dropped]);

  const find = useFind(plain, version);
  const { needle, matches, currentLine, step } = find;

  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({ count: lines.length, getScrollElement: () => scrollRef.current, estimateSize: () => LINE_HEIGHT, overscan: 12 });
  // Wrapped lines have heights of their own: measured again when wrapping changes.
  useEffect(() => virtualizer.measure(), [wrap, virtualizer]);

  // Following, the view stays at the end unless the user scrolled up to read.
  const atEnd = useRef(true);
  useEffect(() => {
    if (atEnd.current && lines.length && currentLine === undefined) virtualizer.scrollToIndex(lines.length - 1, { align: 'end' });
  }, [version, lines.length, virtualizer, currentLine]);
  useEffect(() => {
    if (currentLine !== undefined) virtualizer.scrollToIndex(currentLine, { align: 'center' });
  }, [currentLine, virtualizer]);

  const flash = (text: string) => {
    setNotice(text);
    setTimeout(() => setNotice(null), 1800);
  };
  const text = () => plain.join('\n') + (plain.length ? '\n' : '');
  async function copy() {
    try {
      await navigator.clipboard.writeText(text());
      flash(`Copied ${plain.length} lines`);
    } catch {
      flash('The clipboard is not available here; use Save instead');
    }
  }

  const shownContainer = container ?? log.containers?.[0];
  const options = [...new Set([...props.containers, ...(log.containers ?? [])])];
  const state = log.state;

  return (
    <div className="json-view log-view">
      <div className="json-tools">
        <label className="small">
          Container{' '}
          <select
            aria-label="Container"
            value={shownContainer ?? ''}
            onChange={(e) => {
              setPicked(true);
              setContainer(e.target.value);
            }}
          >
            {options.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
        </label>
        <label className="small">
          <input type="checkbox" checked={previous} onChange={(e) => setPrevious(e.target.checked)} /> Previous
        </label>
        <label className="small" title={props.live ? 'Show lines as they are written' : 'Only a live node is followed'}>
          <input type="checkbox" checked={follow && !previous} disabled={previous || !props.live} onChange={(e) => setFollow(e.target.checked)} /> Follow
        </label>
        <label className="small">
          <input type="checkbox" checked={wrap} onChange={(e) => setWrap(e.target.checked)} /> Wrap
        </label>
        <label className="small">
          <input type="checkbox" checked={timestamps} onChange={(e) => setTimestamps(e.target.checked)} /> Timestamps
        </label>
        <label className="small">
          Last{' '}
          <select aria-label="Lines" value={tailLines} onChange={(e) => setTailLines(Number(e.target.value))}>
            {TAIL_CHOICES.map((n) => (
              <option key={n} value={n}>
                {n.toLocaleString('en')}
              </option>
            ))}
          </select>{' '}
          lines
        </label>
        <input
          type="search"
          className="search"
          placeholder="Find in log"
          aria-label="Find in log"
          {...find.inputProps}
        />
        <button type="button" className="button small" aria-label="Previous match" disabled={!matches.length} onClick={() => step(-1)}>
          ↑
        </button>
        <button type="button" className="button small" aria-label="Next match" disabled={!matches.length} onClick={() => step(1)}>
          ↓
        </button>
        <span className="muted small match-count" aria-live="polite">
          {find.countText}
        </span>
        <span className="spacer" />
        <button type="button" className="button small" disabled={!plain.length} onClick={() => void copy()}>
          Copy
        </button>
        <button type="button" className="button small" disabled={!plain.length} onClick={() => downloadText(`${props.fileName}_${shownContainer ?? 'log'}${previous ? '_previous' : ''}.log`, text(), 'text')}>
          Save…
        </button>
      </div>
      {notice && (
        <div className="toast" role="status">
          {notice}
        </div>
      )}
      {state.kind === 'loading' && <p className="muted">Reading the log…</p>}
      {state.kind === 'error' && (
        <p className="form-error" role="alert">
          {state.message}
        </p>
      )}
      {state.kind === 'unavailable' && (
        <div className="log-unavailable" role="status">
          <p>{state.message}</p>
          <p className="muted small">{state.nextStep}</p>
        </div>
      )}
      {state.kind === 'lines' && state.from && (
        <p className="muted small log-from" role="status" aria-label="Where the lines come from">
          Read from {state.from}
        </p>
      )}
      {state.kind === 'lines' && state.captured && (
        <p className="log-captured small" role="status">
          {capturedText(state.captured)}
        </p>
      )}
      {state.kind === 'lines' && state.omitted !== undefined && (
        <p className="muted small" role="status">
          {state.omitted.toLocaleString('en')} older lines of this range are left out: one read carries at most {LOG_READ_CHARS_MAX / (1024 * 1024)} Mi characters; <code>nodescope logs</code> prints all of it.
        </p>
      )}
      {log.ended && (
        <p className="muted small" role="status">
          {log.ended}
        </p>
      )}
      {state.kind === 'lines' && !lines.length && <p className="muted">{state.following ? 'No lines yet: waiting for the container to write…' : 'The log has no lines in this range.'}</p>}
      <div
        ref={scrollRef}
        className={`json-body log-body${wrap ? ' wrap' : ''}`}
        role="region"
        aria-label="Container log"
        hidden={state.kind !== 'lines' || !lines.length}
        onScroll={(e) => {
          const el = e.currentTarget;
          atEnd.current = el.scrollTop + el.clientHeight >= el.scrollHeight - LINE_HEIGHT;
        }}
      >
        <div className="log-canvas" style={{ height: virtualizer.getTotalSize() }}>
          {virtualizer.getVirtualItems().map((item) => (
            <div key={item.key} data-index={item.index} ref={virtualizer.measureElement} className={`log-line${item.index === currentLine ? ' current' : ''}`} style={{ transform: `translateY(${item.start}px)` }}>
              <LineText line={lines[item.index]!} needle={needle} />
            </div>
          ))}
        </div>
      </div>
    </div>
  );
}
