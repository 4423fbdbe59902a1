import { useEffect, useState } from 'react';
import type { Bridge } from '../../app/contract/bridge';
import type { KeptLogInfo, PodHistoryView } from '../../app/contract/history';
import type { PodDetail as Detail } from '../../app/contract/pods';
import { errorText } from '../format/error-text';
import { HistoryLimitsForm } from './HistoryLimitsForm';
import { JsonView } from './JsonView';
import { Modal } from './Modal';
import { PodDiffView } from './PodDiffView';
import { PodSummaryView } from './PodSummaryView';
import { timeText, timeTitle } from '../format/time-text';
import { KeptLogView, keptLogText } from './KeptLogView';

const EVENT_TONE: Record<string, string> = { LISTED: 'off', ADDED: 'ok', MODIFIED: 'busy', DELETED: 'bad' };


/**
 * The pod's versions as a timeline, newest first; any version opens as the detail shows the live pod.
 * Comparing, two versions are picked (at first the previous and the current, following new versions
 * until the user picks) and shown as a diff, the older on the left.
 * `compareRequest`: bumped from outside (the "what changed" mark) to start comparing.
 */
export function HistoryTab(props: { bridge: Bridge; nodeId: string; uid: string; refreshKey: unknown; now: number; name: string; compareRequest?: number }) {
  const { bridge, nodeId, uid, refreshKey } = props;
  const [history, setHistory] = useState<PodHistoryView | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [selected, setSelected] = useState<number[]>([]);
  const [opened, setOpened] = useState<{ id: number; detail: Detail } | null>(null);
  const [comparing, setComparing] = useState(Boolean(props.compareRequest));
  /** The user picked the pair: new versions no longer move it. */
  const [picked, setPicked] = useState(false);
  const [pair, setPair] = useState<{ ids: string; left: Detail; right: Detail } | null>(null);
  /** The pair's diff in a dialog as large as the window (the detail pane is narrow). */
  const [wide, setWide] = useState(false);
  const [view, setView] = useState<'summary' | 'json'>('summary');
  const [editLimits, setEditLimits] = useState(false);
  /** Bumped to read the history again (new limits may have trimmed it, a crashed instance's log was kept). */
  const [reload, setReload] = useState(0);
  /** The kept log shown. */
  const [openedLog, setOpenedLog] = useState<KeptLogInfo | null>(null);

  // A log kept after the version that showed its instance's end arrives a moment later.
  useEffect(() => bridge.on('podLogKept', (p) => p.nodeId === nodeId && p.uid === uid && setReload((n) => n + 1)), [bridge, nodeId, uid]);

  useEffect(() => {
    let current = true;
    bridge.request('pods.history', { nodeId, uid }).then(
      (h) => {
        if (!current) return;
        setHistory(h);
        setError(null);
      },
      (err: unknown) => current && setError(errorText(err)),
    );
    return () => {
      current = false;
    };
  }, [bridge, nodeId, uid, refreshKey, reload]);

  useEffect(() => {
    if (props.compareRequest) startComparing();
  }, [props.compareRequest]);

  // The default pair follows the history: the previous version and the current one.
  const versionIds = history?.versions.map((v) => v.id) ?? [];
  useEffect(() => {
    if (comparing && !picked && versionIds.length > 0) setSelected(versionIds.slice(-2));
  }, [comparing, picked, versionIds.join()]);

  // Both picked versions, fetched; the older one goes on the left.
  useEffect(() => {
    if (!comparing || selected.length !== 2) return;
    const ids = [...selected].sort((a, b) => a - b);
    let current = true;
    Promise.all(ids.map((version) => bridge.request('pods.version', { nodeId, uid, version }))).then(
      ([left, right]) => current && setPair({ ids: ids.join(), left: left!, right: right! }),
      (err: unknown) => current && setError(errorText(err)),
    );
    return () => {
      current = false;
    };
  }, [bridge, nodeId, uid, comparing, selected.join()]);

  function startComparing() {
    setComparing(true);
    setPicked(false);
    setOpened(null);
  }

  const open = (id: number) => {
    if (comparing) {
      // The two most recent picks make the pair.
      setPicked(true);
      setSelected((was) => (was.includes(id) ? was : [...was.slice(-1), id]));
      return;
    }
    setSelected([id]);
    setOpenedLog(null);
    bridge.request('pods.version', { nodeId, uid, version: id }).then(
      (detail) => setOpened({ id, detail }),
      (err: unknown) => setError(errorText(err)),
    );
  };

  if (error) {
    return (
      <p className="form-error" role="alert">
        {error}
      </p>
    );
  }
  if (!history) return <p className="muted">Loading…</p>;
  const current = history.deleted ? undefined : history.versions.at(-1)?.id;
  // Versions and kept logs in one timeline, newest first (a log after the version that showed its end).
  const entries = [...history.versions.map((v) => ({ time: v.time, version: v })), ...(history.crashLogs ?? []).map((log) => ({ time: log.time, log }))]
    .map((e, order) => ({ ...e, order }))
    .sort((a, b) => b.time - a.time || b.order - a.order);
  const sideOf = (which: 0 | 1) => {
    const detail = which === 0 ? pair!.left : pair!.right;
    return { label: `${versionLabel(history, selected, which)} · ${timeText(detail.versionTime ?? 0)}`, json: detail.json };
  };
  return (
    <div className="history">
      <p className="muted small history-note">
        {history.versions.length} version{history.versions.length === 1 ? '' : 's'} kept
        {history.trimmed > 0 && (
          <strong className="tone-text-wait">
            {' '}
            · {trimmedText(history)}
          </strong>
        )}
        {history.deleted && ' · the pod is deleted; its history is kept for a while'}{' '}
        <button type="button" className="link-button" aria-expanded={editLimits} onClick={() => setEditLimits(!editLimits)}>
          Limits…
        </button>{' '}
        {history.versions.length > 1 && (
          <button
            type="button"
            className="link-button"
            aria-pressed={comparing}
            onClick={() => {
              if (comparing) {
                setComparing(false);
                setSelected([]);
                setPair(null);
              } else startComparing();
            }}
          >
            {comparing ? 'Stop comparing' : 'Compare versions'}
          </button>
        )}
      </p>
      {comparing && <p className="muted small">Pick two versions to compare: the older one is shown on the left.</p>}
      {editLimits && (
        <HistoryLimitsForm
          bridge={bridge}
          limits={history.limits}
          onSaved={() => {
            setEditLimits(false);
            setReload(reload + 1);
          }}
        />
      )}
      <ol className="timeline" aria-label={comparing ? 'Pod versions, newest first: pick two to compare' : 'Pod versions, newest first'}>
        {entries.map((e) =>
          'version' in e ? (
            <li key={`v${e.version.id}`}>
              <button
                type="button"
                className={selected.includes(e.version.id) ? 'version selected' : 'version'}
                aria-pressed={selected.includes(e.version.id)}
                onClick={() => open(e.version.id)}
              >
                <span className="mono small version-time" title={timeTitle(e.version.time)}>
                  {timeText(e.version.time)}
                </span>
                <span className={`pill tone-${EVENT_TONE[e.version.event] ?? 'off'}`}>{e.version.event}</span>
                <span className="version-change">{e.version.change}</span>
                {e.version.id === current && <span className="tag">current</span>}
              </button>
            </li>
          ) : (
            <li key={logKey(e.log)}>
              <button
                type="button"
                className={openedLog && logKey(openedLog) === logKey(e.log) ? 'version selected' : 'version'}
                aria-pressed={Boolean(openedLog && logKey(openedLog) === logKey(e.log))}
                disabled={comparing}
                onClick={() => {
                  setOpenedLog(e.log);
                  setOpened(null);
                  setSelected([]);
                }}
              >
                <span className="mono small version-time" title={timeTitle(e.log.time)}>
                  {timeText(e.log.time)}
                </span>
                <span className="pill tone-bad">LOG</span>
                <span className="version-change">{keptLogText(e.log)}</span>
              </button>
            </li>
          ),
        )}
      </ol>
      {comparing && pair && pair.ids === [...selected].sort((a, b) => a - b).join() && (
        <section className="version-detail" aria-label="Two versions compared">
          <div className="diff-toolbar">
            <span className="spacer" />
            <button type="button" className="button small" onClick={() => setWide(true)}>
              Open wide
            </button>
          </div>
          <PodDiffView
            left={sideOf(0)}
            right={sideOf(1)}
            differentPods={false}
          />
          {wide && (
            <Modal title={`${props.name.replace('_', '/')}: two versions`} onClose={() => setWide(false)} size="full">
              <PodDiffView
                left={sideOf(0)}
                right={sideOf(1)}
                differentPods={false}
              />
            </Modal>
          )}
        </section>
      )}
      {!comparing && openedLog && <KeptLogView bridge={bridge} nodeId={nodeId} uid={uid} log={openedLog} />}
      {!comparing && opened && (
        <section className="version-detail" aria-label={`Version of ${timeText(opened.detail.versionTime ?? 0)}`}>
          <header className="version-head">
            <strong>As of {timeText(opened.detail.versionTime ?? 0)}</strong>
            <span className="spacer" />
            <button type="button" className={view === 'summary' ? 'tab active' : 'tab'} aria-pressed={view === 'summary'} onClick={() => setView('summary')}>
              Summary
            </button>
            <button type="button" className={view === 'json' ? 'tab active' : 'tab'} aria-pressed={view === 'json'} onClick={() => setView('json')}>
              JSON
            </button>
          </header>
          {view === 'summary' ? (
            <PodSummaryView summary={opened.detail.summary} notSelected={opened.detail.notSelected} unknownFields={opened.detail.unknownFields} now={props.now} />
          ) : (
            <JsonView text={opened.detail.json} fileName={`${props.name}-${opened.id}.json`} />
          )}
        </section>
      )}
    </div>
  );
}

/** Names a kept log across reloads of the history. */
const logKey = (log: KeptLogInfo) => `log ${log.container} ${log.instance} ${log.time}`;

/** "version 3 of 5" or "current", for the older (0) or newer (1) of the picked pair. */
function versionLabel(history: PodHistoryView, selected: number[], which: 0 | 1): string {
  const id = [...selected].sort((a, b) => a - b)[which]!;
  const index = history.versions.findIndex((v) => v.id === id);
  if (index === history.versions.length - 1 && !history.deleted) return 'current';
  return `version ${index + 1} of ${history.versions.length}`;
}

/** Why the timeline starts later than the pod: the history limits, the app's memory budget, or both. */
function trimmedText(history: PodHistoryView): string {
  const versions = (n: number) => `${n} earlier version${n === 1 ? '' : 's'}`;
  const forBudget = history.trimmedForBudget ?? 0;
  const byLimits = history.trimmed - forBudget;
  return [
    ...(byLimits > 0 ? [`${versions(byLimits)} trimmed (keeps ${history.limits.perPod} per pod)`] : []),
    ...(forBudget > 0 ? [`${versions(forBudget)} dropped to stay within the app's memory budget (Settings)`] : []),
  ].join(' · ');
}
