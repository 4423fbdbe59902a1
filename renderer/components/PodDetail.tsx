import { useEffect, useMemo, useState } from 'react';
import type { Bridge } from '../../app/contract/bridge';
import type { PodDetail as Detail, PodRow } from '../../app/contract/pods';
import { kubectlJsonToYaml, yamlProblemsText } from '../../app/pod/kubectl-json-to-yaml';
import { HistoryTab } from './HistoryTab';
import { JsonView } from './JsonView';
import { LogsTab } from './LogsTab';
import { statusTone } from './PodsTable';
import { PodResourcesView } from './PodResourcesView';
import { PodSummaryView, UnknownFieldsTable } from './PodSummaryView';
import type { PodMetricsView } from '../../app/pod/view/pod-metrics';
import { Tabs, type TabItem } from './Tabs';
import { useNow } from './use-model';
import { useShortcuts } from '../keys/use-shortcuts';
import { errorText } from '../format/error-text';
import { agoText, isRecent } from '../format/recent-change';
import type { PodVersionInfo } from '../../app/contract/history';
import { timeText } from '../format/time-text';

type Tab = 'summary' | 'resources' | 'json' | 'yaml' | 'unknown' | 'history' | 'logs';

/**
 * The opened pod: refetched whenever its row changes, so the detail follows the watch, and when the
 * table's selection moves to another pod (the tab stays). What was fetched for another pod is never
 * shown under this one's name.
 */
export function PodDetail(props: {
  bridge: Bridge;
  nodeId: string;
  row: PodRow | undefined;
  uid: string;
  metrics: PodMetricsView;
  onClose: () => void;
  onCompareWith: () => void;
  /** Bumped to show the Logs tab (the l key). */
  logsRequest?: number;
  /** Whether the source is live, so its logs can be followed. */
  live?: boolean;
  /** The node keeps rows only: the pod is read from the node as it is opened. */
  rowsOnly?: boolean;
}) {
  const [tab, setTab] = useState<Tab>(props.logsRequest ? 'logs' : 'summary');
  useEffect(() => {
    if (props.logsRequest) setTab('logs');
  }, [props.logsRequest]);
  /** The pod's last version when it was a change (not a list or its addition): the "what changed" mark. */
  const [lastChange, setLastChange] = useState<{ uid: string; version: PodVersionInfo } | null>(null);
  /** Bumped to open the History tab comparing the last change. */
  const [compareRequest, setCompareRequest] = useState<{ uid: string; n: number } | null>(null);
  const [fetched, setFetched] = useState<{ uid: string; detail: Detail | null; error: string | null } | null>(null);
  const now = useNow(5000);
  const { bridge, nodeId, uid, row, rowsOnly } = props;
  const detail = fetched?.uid === uid ? fetched.detail : null;
  const error = fetched?.uid === uid ? fetched.error : null;

  // Read again as the node switches to rows only or back, so where the pod was read from is said as it is now.
  useEffect(() => {
    let current = true;
    bridge.request('pods.get', { nodeId, uid }).then(
      (d) => current && setFetched({ uid, detail: d, error: null }),
      // A refetch that fails keeps what was shown for this pod, with the error above it.
      (err: unknown) => current && setFetched((was) => ({ uid, detail: was?.uid === uid ? was.detail : null, error: errorText(err) })),
    );
    return () => {
      current = false;
    };
  }, [bridge, nodeId, uid, row, rowsOnly]);

  // The hub's history knows when the pod last changed and what, also from before this window opened (a
  // rows-only node keeps none).
  useEffect(() => {
    if (rowsOnly) return setLastChange(null);
    let current = true;
    bridge.request('pods.history', { nodeId, uid }).then(
      (h) => {
        const last = h.versions.at(-1);
        if (current) setLastChange(last?.event === 'MODIFIED' ? { uid, version: last } : null);
      },
      () => current && setLastChange(null),
    );
    return () => {
      current = false;
    };
  }, [bridge, nodeId, uid, row, rowsOnly]);
  const changed = lastChange?.uid === uid && isRecent(lastChange.version.time, now) ? lastChange.version : null;

  // Printed here from the pod's kubectl JSON by the code the CLI prints -o yaml with, only while it is shown.
  const yaml = useMemo(() => {
    if (!detail || tab !== 'yaml') return null;
    const printed = kubectlJsonToYaml(detail.json);
    return { text: printed.yaml, note: yamlProblemsText('this pod', printed.problems) };
  }, [detail, tab]);

  const name = row?.name ?? detail?.summary.name ?? uid;
  const namespace = row?.namespace ?? detail?.summary.namespace ?? '';
  // 1..7 pick the views in this order (key-bindings.ts TAB_TITLES names them for the help and the palette).
  useShortcuts({ tab: (i) => setTab(tabs[i as number]?.id ?? tab) });
  const tabs: TabItem<Tab>[] = [
    { id: 'summary', label: 'Summary' },
    { id: 'json', label: 'JSON' },
    { id: 'yaml', label: 'YAML' },
    { id: 'unknown', label: `Unknown fields${detail ? ` (${detail.unknownFields.length})` : ''}` },
    { id: 'resources', label: 'Resources' },
    { id: 'logs', label: 'Logs' },
    { id: 'history', label: 'History' },
  ];
  const containers = detail?.summary.containers ?? [];
  // The one that restarted is the one whose log an operator opens the tab for; else the first app container.
  const preferredContainer = (containers.find((c) => c.restarts > 0) ?? containers.find((c) => c.kind === 'regular') ?? containers[0])?.name;

  return (
    <section className="pod-detail" aria-label={`Pod ${namespace}/${name}`}>
      <header className="detail-head">
        <div className="detail-title">
          <span className="muted mono small">{namespace}</span>
          <h2 className="mono">{name}</h2>
        </div>
        {row && !detail?.notSelected.includes('status') && <span className={`pill tone-${statusTone(row)}`}>{row.deleting ? 'Terminating' : row.status}</span>}
        {!row && detail && <span className="pill tone-off">{detail.deletedAt ? `deleted ${timeText(detail.deletedAt)}` : 'deleted'}</span>}
        <button type="button" className="icon-button" aria-label="Close pod detail" onClick={props.onClose}>
          ✕
        </button>
      </header>
      <div className="detail-actions small">
        <button type="button" className="button small" onClick={props.onCompareWith} aria-keyshortcuts="c" title="Compare this pod with another pod of any open source (c)">
          Compare with…
        </button>
        {changed && (
          <p className="changed-note" role="status">
            <span className="changed-mark" aria-hidden="true">
              Δ
            </span>
            Changed {agoText(changed.time, now)}: {changed.change}{' '}
            <button
              type="button"
              className="link-button"
              onClick={() => {
                setTab('history');
                setCompareRequest((was) => ({ uid, n: (was?.n ?? 0) + 1 }));
              }}
            >
              See what changed
            </button>
          </p>
        )}
        {detail?.fetchedAt !== undefined && (
          <p className="muted" role="note">
            Read from the node when opened, {timeText(detail.fetchedAt)}: this node keeps rows only (more nodes are open than &quot;Keep rows only above&quot; in
            Settings), so no earlier versions are kept.
          </p>
        )}
      </div>
      <Tabs label="Pod views" tabs={tabs} selected={tab} onSelect={setTab} panelClassName="detail-body">
        {error && (
          <p className="form-error" role="alert">
            {error}
          </p>
        )}
        {!detail && !error && tab !== 'history' && <p className="muted">{props.rowsOnly ? 'Reading the pod from the node…' : 'Loading…'}</p>}
        {detail && tab === 'summary' && <PodSummaryView summary={detail.summary} notSelected={detail.notSelected} unknownFields={detail.unknownFields} now={now} />}
        {detail && tab === 'resources' && <PodResourcesView containers={detail.summary.containers.map((c) => c.name)} metrics={props.metrics} />}
        {detail && tab === 'json' && <JsonView key="json" text={detail.json} fileName={`${namespace}_${name}.json`} />}
        {yaml?.note && <p className="muted small">{yaml.note}.</p>}
        {yaml && <JsonView key="yaml" format="yaml" text={yaml.text} fileName={`${namespace}_${name}.yaml`} />}
        {detail && tab === 'unknown' && <UnknownFieldsTable fields={detail.unknownFields} />}
        {tab === 'logs' && (
          <LogsTab key={uid} bridge={bridge} nodeId={nodeId} uid={uid} fileName={`${namespace}_${name}`} containers={containers.map((c) => c.name)} preferredContainer={preferredContainer} live={props.live ?? true} />
        )}
        {/* Mounted afresh as the node switches: a history read before is not the node's any more. */}
        {tab === 'history' && <HistoryTab key={`${uid}:${rowsOnly === true}`} bridge={bridge} nodeId={nodeId} uid={uid} refreshKey={row} now={now} name={`${namespace}_${name}`} compareRequest={compareRequest?.uid === uid ? compareRequest.n : 0} />}
      </Tabs>
    </section>
  );
}
