import { useEffect, useState } from 'react';
import type { Bridge } from '../../app/contract/bridge';
import type { PodHistoryView } from '../../app/contract/history';
import type { PodDetail as Detail } from '../../app/contract/pods';
import { errorText } from '../format/error-text';
import { HistoryLimitsForm } from './HistoryLimitsForm';
import { JsonView } from './JsonView';
import { PodSummaryView } from './PodSummaryView';

const EVENT_TONE: Record<string, string> = { LISTED: 'off', ADDED: 'ok', MODIFIED: 'busy', DELETED: 'bad' };

const timeText = (ms: number) => new Date(ms).toLocaleString(undefined, { dateStyle: 'short', timeStyle: 'medium' });

/**
 * The pod's versions as a timeline, newest first; any version opens as the detail shows the live pod.
 * `selected` holds the versions picked (at most two, so a diff of two versions can take them).
 */
export function HistoryTab(props: { bridge: Bridge; nodeId: string; uid: string; refreshKey: unknown; now: number; name: string }) {
  const { bridge, nodeId, uid, refreshKey } = props;
  const [history, setHistory] = useState<PodHistoryView | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [selected, setSelected] = useState<number[]>([]);
  const [opened, setOpened] = useState<{ id: number; detail: Detail } | null>(null);
  const [view, setView] = useState<'summary' | 'json'>('summary');
  const [editLimits, setEditLimits] = useState(false);
  /** Bumped to read the history again (new limits may have trimmed it). */
  const [reload, setReload] = useState(0);

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

  const open = (id: number) => {
    setSelected([id]);
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
  const newestFirst = [...history.versions].reverse();
  return (
    <div className="history">
      <p className="muted small history-note">
        {history.versions.length} version{history.versions.length === 1 ? '' : 's'} kept
        {history.trimmed > 0 && (
          <strong className="tone-text-wait">
            {' '}
            · {history.trimmed} earlier version{history.trimmed === 1 ? '' : 's'} trimmed (keeps {history.limits.perPod} per pod)
          </strong>
        )}
        {history.deleted && ' · the pod is deleted; its history is kept for a while'}{' '}
        <button type="button" className="link-button" aria-expanded={editLimits} onClick={() => setEditLimits(!editLimits)}>
          Limits…
        </button>
      </p>
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
      <ol className="timeline" aria-label="Pod versions, newest first">
        {newestFirst.map((v, i) => (
          <li key={v.id}>
            <button
              type="button"
              className={selected.includes(v.id) ? 'version selected' : 'version'}
              aria-pressed={selected.includes(v.id)}
              onClick={() => open(v.id)}
            >
              <span className="mono small">{timeText(v.time)}</span>
              <span className={`pill tone-${EVENT_TONE[v.event] ?? 'off'}`}>{v.event}</span>
              <span className="version-change">{v.change}</span>
              {i === 0 && !history.deleted && <span className="tag">current</span>}
            </button>
          </li>
        ))}
      </ol>
      {opened && (
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
            <PodSummaryView summary={opened.detail.summary} unknownFields={opened.detail.unknownFields} now={props.now} />
          ) : (
            <JsonView text={opened.detail.json} fileName={`${props.name}-${opened.id}.json`} />
          )}
        </section>
      )}
    </div>
  );
}
