import { useEffect, useMemo, useState } from 'react';
import type { Bridge } from '../../app/contract/bridge';
import type { PodDetail as Detail, PodRow } from '../../app/contract/pods';
import { kubectlJsonToYaml, yamlProblemsText } from '../../app/pod/kubectl-json-to-yaml';
import { HistoryTab } from './HistoryTab';
import { JsonView } from './JsonView';
import { statusTone } from './PodsTable';
import { PodSummaryView, UnknownFieldsTable } from './PodSummaryView';
import { Tabs, type TabItem } from './Tabs';
import { useNow } from './use-model';
import { errorText } from '../format/error-text';

type Tab = 'summary' | 'json' | 'yaml' | 'unknown' | 'history';

/**
 * The opened pod: refetched whenever its row changes, so the detail follows the watch, and when the
 * table's selection moves to another pod (the tab stays). What was fetched for another pod is never
 * shown under this one's name.
 */
export function PodDetail(props: { bridge: Bridge; nodeId: string; row: PodRow | undefined; uid: string; onClose: () => void }) {
  const [tab, setTab] = useState<Tab>('summary');
  const [fetched, setFetched] = useState<{ uid: string; detail: Detail | null; error: string | null } | null>(null);
  const now = useNow(5000);
  const { bridge, nodeId, uid, row } = props;
  const detail = fetched?.uid === uid ? fetched.detail : null;
  const error = fetched?.uid === uid ? fetched.error : null;

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
  }, [bridge, nodeId, uid, row]);

  // Printed here from the pod's kubectl JSON by the code the CLI prints -o yaml with, only while it is shown.
  const yaml = useMemo(() => {
    if (!detail || tab !== 'yaml') return null;
    const printed = kubectlJsonToYaml(detail.json);
    return { text: printed.yaml, note: yamlProblemsText('this pod', printed.problems) };
  }, [detail, tab]);

  const name = row?.name ?? detail?.summary.name ?? uid;
  const namespace = row?.namespace ?? detail?.summary.namespace ?? '';
  const tabs: TabItem<Tab>[] = [
    { id: 'summary', label: 'Summary' },
    { id: 'json', label: 'JSON' },
    { id: 'yaml', label: 'YAML' },
    { id: 'unknown', label: `Unknown fields${detail ? ` (${detail.unknownFields.length})` : ''}` },
    { id: 'history', label: 'History' },
  ];

  return (
    <section className="pod-detail" aria-label={`Pod ${namespace}/${name}`}>
      <header className="detail-head">
        <div className="detail-title">
          <span className="muted mono small">{namespace}</span>
          <h2 className="mono">{name}</h2>
        </div>
        {row && <span className={`pill tone-${statusTone(row)}`}>{row.deleting ? 'Terminating' : row.status}</span>}
        {!row && detail && <span className="pill tone-off">{detail.deletedAt ? `deleted ${new Date(detail.deletedAt).toLocaleTimeString()}` : 'deleted'}</span>}
        <button type="button" className="icon-button" aria-label="Close pod detail" onClick={props.onClose}>
          ✕
        </button>
      </header>
      <Tabs label="Pod views" tabs={tabs} selected={tab} onSelect={setTab} panelClassName="detail-body">
        {error && (
          <p className="form-error" role="alert">
            {error}
          </p>
        )}
        {!detail && !error && tab !== 'history' && <p className="muted">Loading…</p>}
        {detail && tab === 'summary' && <PodSummaryView summary={detail.summary} unknownFields={detail.unknownFields} now={now} />}
        {detail && tab === 'json' && <JsonView key="json" text={detail.json} fileName={`${namespace}_${name}.json`} />}
        {yaml?.note && <p className="muted small">{yaml.note}.</p>}
        {yaml && <JsonView key="yaml" format="yaml" text={yaml.text} fileName={`${namespace}_${name}.yaml`} />}
        {detail && tab === 'unknown' && <UnknownFieldsTable fields={detail.unknownFields} />}
        {tab === 'history' && <HistoryTab bridge={bridge} nodeId={nodeId} uid={uid} refreshKey={row} now={now} name={`${namespace}_${name}`} />}
      </Tabs>
    </section>
  );
}
