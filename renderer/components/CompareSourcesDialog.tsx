import { useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import type { Bridge } from '../../app/contract/bridge';
import type { DiffEntry, DiffResult } from '../../app/contract/diff';
import type { JobProgress } from '../../app/contract/jobs';
import type { NodeInfo } from '../../app/contract/nodes';
import { matchesFilter, parseFilter } from '../../app/pod/view/filter-language';
import { errorText } from '../format/error-text';
import { groupDiffEntries } from '../diff/group-entries';
import { JsonView } from './JsonView';
import { Modal } from './Modal';
import { NoiseRulesFields, useNoiseChoice } from './NoiseRulesFields';
import { PodDiffView, type DiffSide } from './PodDiffView';
import { timeText, timeTitle } from '../format/time-text';

interface Side {
  nodeId: string;
  /** A recording's instant (epoch ms); undefined for other sources. */
  at?: number;
}

type Run =
  | { phase: 'setup' }
  | { phase: 'running'; progress: JobProgress | null }
  | { phase: 'failed'; message: string }
  /** entries: the pages fetched so far, of result.total. */
  | { phase: 'done'; result: Omit<DiffResult, 'entries'>; entries: DiffEntry[] };

const timelineOf = (node: NodeInfo | undefined) => (node?.state.phase === 'offline' ? node.state.timeline : undefined);
const MARK: Record<DiffEntry['change'], string> = { added: '+', removed: '−', changed: '~' };

/** A side's source, and for a recording the instant to take it at. */
function SidePicker(props: { label: string; nodes: readonly NodeInfo[]; side: Side; onChange: (side: Side) => void }) {
  const node = props.nodes.find((n) => n.id === props.side.nodeId);
  const timeline = timelineOf(node);
  return (
    <fieldset className="compare-side">
      <legend>{props.label}</legend>
      <select
        aria-label={`${props.label}: source`}
        value={props.side.nodeId}
        onChange={(e) => {
          const next = props.nodes.find((n) => n.id === e.target.value);
          const t = timelineOf(next);
          props.onChange({ nodeId: e.target.value, ...(t ? { at: t.at } : {}) });
        }}
      >
        {props.nodes.map((n) => (
          <option key={n.id} value={n.id}>
            {n.label}
            {n.state.phase === 'offline' ? ` (${n.spec.kind})` : n.state.phase === 'live' ? ' (live)' : ''}
          </option>
        ))}
      </select>
      {timeline && (
        <label className="small compare-time">
          at <span className="mono" title={timeTitle(props.side.at ?? timeline.at)}>{timeText(props.side.at ?? timeline.at)}</span>
          <input
            type="range"
            aria-label={`${props.label}: instant of the recording`}
            min={timeline.start}
            max={timeline.end}
            step={1000}
            value={props.side.at ?? timeline.at}
            onChange={(e) => props.onChange({ nodeId: props.side.nodeId, at: Number(e.target.value) })}
          />
        </label>
      )}
    </fieldset>
  );
}

/**
 * Source against source: two sources (a live node, another node, a snapshot, a recording at some
 * instant) compared in the app core with progress and cancel; then added, removed and changed pods,
 * grouped by namespace and owner with counts, filtered with the pods filter language, any pod opened
 * side by side (as it was when compared).
 */
export function CompareSourcesDialog(props: { bridge: Bridge; nodes: readonly NodeInfo[]; initialLeft: string; onClose: () => void }) {
  const { bridge, nodes } = props;
  const other = nodes.find((n) => n.id !== props.initialLeft) ?? nodes[0]!;
  const sideOf = (nodeId: string): Side => {
    const t = timelineOf(nodes.find((n) => n.id === nodeId));
    return { nodeId, ...(t ? { at: t.at } : {}) };
  };
  const [left, setLeft] = useState<Side>(() => sideOf(props.initialLeft));
  const [right, setRight] = useState<Side>(() => sideOf(other.id));
  const [run, setRun] = useState<Run>({ phase: 'setup' });
  const [filterText, setFilterText] = useState('');
  const [drill, setDrill] = useState<DiffEntry | null>(null);
  // On as for two pods: the rules for two pods apply to the pairs that are two pods (matched by name or mirror).
  const noise = useNoiseChoice(true);
  /** The comparison under way, cancelled in the core when another starts, on Cancel, or with the dialog. */
  const job = useRef<AbortController | null>(null);
  /** The finished comparison shown: the core keeps it for its further pages and pairs until it is forgotten. */
  const shown = useRef<string | null>(null);
  const forget = useCallback(() => {
    const jobId = shown.current;
    shown.current = null;
    if (jobId) void bridge.request('diff.forget', { jobId }).catch(() => undefined);
  }, [bridge]);
  useEffect(
    () => () => {
      job.current?.abort();
      forget();
    },
    [forget],
  );

  async function start() {
    job.current?.abort();
    forget();
    const mine = new AbortController();
    job.current = mine;
    setDrill(null);
    setRun({ phase: 'running', progress: null });
    try {
      const clean = (s: Side) => ({ nodeId: s.nodeId, ...(s.at !== undefined ? { at: s.at } : {}) });
      const first = await bridge.request(
        'diff.run',
        { left: clean(left), right: clean(right), noise: { ...noise.settings, disabled: [...(noise.settings.disabled ?? [])], enabled: [...(noise.settings.enabled ?? [])], extra: [...(noise.settings.extra ?? [])] } },
        { signal: mine.signal, onProgress: (progress) => setRun({ phase: 'running', progress }) },
      );
      shown.current = first.jobId;
      setRun({ phase: 'done', result: first, entries: first.entries });
    } catch (err) {
      if (!mine.signal.aborted) setRun({ phase: 'failed', message: errorText(err) });
    } finally {
      if (job.current === mine) job.current = null;
    }
  }

  function cancel() {
    job.current?.abort();
    job.current = null;
    setRun({ phase: 'setup' });
  }

  // The pods that differ come a page at a time, as the list is scrolled to its end (or all of them for a
  // filter, which must see every one): thousands of them are never fetched for a glance at the first.
  const fetching = useRef(false);
  const more = run.phase === 'done' ? run.result.total - run.entries.length : 0;
  const fetchMore = useCallback(async () => {
    if (run.phase !== 'done' || more <= 0 || fetching.current) return;
    const { jobId } = run.result;
    fetching.current = true;
    try {
      const page = await bridge.request('diff.result', { jobId, offset: run.entries.length });
      setRun((r) => (r.phase === 'done' && r.result.jobId === jobId && r.entries.length === page.offset ? { ...r, entries: [...r.entries, ...page.entries] } : r));
    } catch (err) {
      if (shown.current === jobId) setRun({ phase: 'failed', message: errorText(err) });
    } finally {
      fetching.current = false;
    }
  }, [bridge, run, more]);
  const [moreMark, setMoreMark] = useState<HTMLElement | null>(null);
  useEffect(() => {
    if (!moreMark) return;
    const seen = new IntersectionObserver((marks) => marks.some((m) => m.isIntersecting) && void fetchMore());
    seen.observe(moreMark);
    return () => seen.disconnect();
  }, [moreMark, fetchMore]);

  const filter = useMemo(() => parseFilter(filterText), [filterText]);
  useEffect(() => {
    if (filter.terms.length > 0) void fetchMore();
  }, [filter, fetchMore]);
  const matching = run.phase === 'done' ? (filter.terms.length ? run.entries.filter((e) => matchesFilter(filter, e.row)) : run.entries) : [];
  const groups = useMemo(() => groupDiffEntries(matching), [matching.length, run, filter]);
  const running = run.phase === 'running';

  return (
    <Modal title="Compare sources" onClose={props.onClose} size="full">
      {drill && run.phase === 'done' ? (
        <DrillDown bridge={bridge} jobId={run.result.jobId} entry={drill} onBack={() => setDrill(null)} />
      ) : (
        <>
          <form
            className="compare-sides"
            onSubmit={(e) => {
              e.preventDefault();
              void start();
            }}
          >
            <SidePicker label="Left (before)" nodes={nodes} side={left} onChange={setLeft} />
            <SidePicker label="Right (after)" nodes={nodes} side={right} onChange={setRight} />
            <div className="compare-actions">
              <button type="submit" className="button primary" disabled={running || noise.patternError !== null}>
                Compare
              </button>
              {running && (
                <button type="button" className="button" onClick={cancel}>
                  Cancel
                </button>
              )}
            </div>
          </form>
          <NoiseRulesFields choice={noise} />
          <p className="muted small compare-rules-note">UID, name, IP and time rules apply to pods paired by mirror annotation or name, not to the same pod on both sides.</p>
          {run.phase === 'running' && (
            <div className="compare-progress" role="status">
              <progress max={run.progress?.total || 1} value={run.progress?.done ?? 0} aria-label="Comparison progress" />
              <span className="small muted">
                {run.progress ? `Comparing… ${Math.floor((100 * run.progress.done) / Math.max(1, run.progress.total))}%` : 'Starting…'}
              </span>
            </div>
          )}
          {run.phase === 'failed' && (
            <p className="form-error" role="alert">
              {run.message}
            </p>
          )}
          {run.phase === 'done' && (
            <section className="compare-result" aria-label="Comparison result">
              <p className="compare-counts" role="status">
                <span className="tone-text-bad">{run.result.counts.removed} removed</span> · <span className="tone-text-ok">{run.result.counts.added} added</span> ·{' '}
                <span className="tone-text-wait">{run.result.counts.changed} changed</span> · <span className="muted">{run.result.counts.unchanged} unchanged</span>
                <span className="muted small">
                  {' '}
                  — {run.result.left.label}
                  {run.result.left.at !== undefined ? ` at ${timeText(run.result.left.at)}` : ''} ({run.result.left.podCount} pods) → {run.result.right.label}
                  {run.result.right.at !== undefined ? ` at ${timeText(run.result.right.at)}` : ''} ({run.result.right.podCount} pods)
                </span>
              </p>
              {(run.result.left.mask || run.result.right.mask) && (
                <p className="small tone-text-wait">Only the fields both sides selected are compared (a field mask is set: {[run.result.left.mask, run.result.right.mask].filter(Boolean).join(' · ')}).</p>
              )}
              <input
                type="search"
                className="search compare-filter mono"
                placeholder="Filter changed pods   ns:  phase:  label:k=v  owner:  node:   -negate"
                aria-label="Filter compared pods"
                aria-invalid={filter.errors.length > 0 ? true : undefined}
                spellCheck={false}
                value={filterText}
                onChange={(e) => setFilterText(e.target.value)}
                onKeyDown={(e) => {
                  if (e.key === 'ArrowDown') {
                    e.preventDefault();
                    e.currentTarget.closest('.compare-result')?.querySelector<HTMLElement>('.diff-entry')?.focus();
                  }
                }}
              />
              {filter.errors.length > 0 && (
                <span className="field-error" role="alert">
                  {filter.errors[0]}
                </span>
              )}
              {run.result.total === 0 ? (
                <p className="muted">No differences: every pod is the same on both sides (noise rules applied).</p>
              ) : matching.length === 0 && more === 0 ? (
                <p className="muted">No pod that differs matches the filter.</p>
              ) : (
                <div className="compare-groups" onKeyDown={moveBetweenEntries}>
                  {groups.map((ns) => (
                    <section key={ns.namespace} className="compare-ns" aria-label={`Namespace ${ns.namespace || '(none)'}`}>
                      <h3 className="compare-group-head">
                        <span className="mono">{ns.namespace || '(no namespace)'}</span> <Counts counts={ns.counts} />
                      </h3>
                      {ns.owners.map((owner) => (
                        <div key={owner.owner} className="compare-owner">
                          <h4 className="compare-group-head small">
                            <span className="muted">{owner.owner || 'no owner'}</span> <Counts counts={owner.counts} />
                          </h4>
                          <ul className="compare-entries">
                            {owner.entries.map((entry) => (
                              <li key={`${entry.leftUid ?? ''}>${entry.rightUid ?? ''}`}>
                                <button type="button" className={`diff-entry ${entry.change}`} onClick={() => setDrill(entry)}>
                                  <span className="diff-entry-mark" aria-label={entry.change}>
                                    {MARK[entry.change]}
                                  </span>
                                  <span className="mono">{entry.row.name}</span>
                                  <span className="diff-entry-lines mono small muted">
                                    {entry.change === 'changed'
                                      ? `${entry.changes[0] ?? ''}${entry.changes.length + entry.moreChanges > 1 ? ` (+${entry.changes.length + entry.moreChanges - 1} more)` : ''}`
                                      : entry.change === 'added'
                                        ? `only in ${run.result.right.label}`
                                        : `only in ${run.result.left.label}`}
                                  </span>
                                </button>
                              </li>
                            ))}
                          </ul>
                        </div>
                      ))}
                    </section>
                  ))}
                </div>
              )}
              {more > 0 && (
                <p ref={setMoreMark} className="muted small compare-more" role="status">
                  {run.entries.length.toLocaleString()} of {run.result.total.toLocaleString()} pods that differ shown{filter.terms.length > 0 ? '; the filter takes in the rest as they come' : ''}.{' '}
                  <button type="button" className="button small" onClick={() => void fetchMore()}>
                    Show more
                  </button>
                </p>
              )}
            </section>
          )}
        </>
      )}
    </Modal>
  );
}

/** ↑/↓ move between the pods of the result, k9s-like; Enter (the button's own) opens one. */
function moveBetweenEntries(e: KeyboardEvent<HTMLElement>) {
  if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp' && e.key !== 'j' && e.key !== 'k') return;
  const all = [...e.currentTarget.querySelectorAll<HTMLElement>('.diff-entry')];
  const at = all.indexOf(document.activeElement as HTMLElement);
  if (at === -1) return;
  e.preventDefault();
  all[Math.max(0, Math.min(all.length - 1, at + (e.key === 'ArrowDown' || e.key === 'j' ? 1 : -1)))]?.focus();
}

function Counts({ counts }: { counts: Record<DiffEntry['change'], number> }) {
  return (
    <span className="compare-group-counts small">
      {counts.removed > 0 && <span className="tone-text-bad">−{counts.removed}</span>}
      {counts.added > 0 && <span className="tone-text-ok">+{counts.added}</span>}
      {counts.changed > 0 && <span className="tone-text-wait">~{counts.changed}</span>}
    </span>
  );
}

/** One pod of the comparison, as it was compared: side by side, or the one side it is on. */
function DrillDown(props: { bridge: Bridge; jobId: string; entry: DiffEntry; onBack: () => void }) {
  const { bridge, jobId, entry } = props;
  const [pair, setPair] = useState<{ left: DiffSide | null; right: DiffSide | null; differentPods: boolean } | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let current = true;
    bridge
      .request('diff.pods', { jobId, ...(entry.leftUid ? { leftUid: entry.leftUid } : {}), ...(entry.rightUid ? { rightUid: entry.rightUid } : {}) })
      .then(
        (p) => current && setPair(p),
        (err: unknown) => current && setError(errorText(err)),
      );
    return () => {
      current = false;
    };
  }, [bridge, jobId, entry]);
  const only = pair && (pair.left ?? pair.right);
  return (
    <>
      <div className="diff-toolbar">
        <button type="button" className="button small" onClick={props.onBack} autoFocus>
          ← All compared pods
        </button>
        <strong className="mono">
          {entry.row.namespace}/{entry.row.name}
        </strong>
        {entry.matchedBy && entry.matchedBy !== 'uid' && <span className="small muted">matched by {entry.matchedBy === 'mirror' ? 'mirror annotation' : 'namespace/name'}</span>}
      </div>
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      {pair?.left && pair.right ? (
        <PodDiffView left={pair.left} right={pair.right} differentPods={pair.differentPods} />
      ) : only ? (
        <>
          <p className="small">
            Only in <strong>{only.label}</strong>.
          </p>
          <JsonView text={only.json} fileName={`${entry.row.namespace}_${entry.row.name}.json`} />
        </>
      ) : (
        !error && <p className="muted">Loading…</p>
      )}
    </>
  );
}
