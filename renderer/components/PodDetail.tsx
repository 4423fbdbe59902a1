import { useEffect, useState } from 'react';
import type { Bridge } from '../../app/contract/bridge';
import type { PodDetail as Detail, PodRow } from '../../app/contract/pods';
import { JsonView } from './JsonView';
import { statusTone } from './PodsTable';
import { PodSummaryView, UnknownFieldsTable } from './PodSummaryView';
import { useNow } from './use-model';
import { errorText } from '../format/error-text';

type Tab = 'summary' | 'json' | 'unknown';

/** The opened pod: refetched whenever its row changes, so the detail follows the watch. */
export function PodDetail(props: { bridge: Bridge; nodeId: string; row: PodRow | undefined; uid: string; onClose: () => void }) {
  const [tab, setTab] = useState<Tab>('summary');
  const [detail, setDetail] = useState<Detail | null>(null);
  const [error, setError] = useState<string | null>(null);
  const now = useNow(5000);
  const { bridge, nodeId, uid, row } = props;

  useEffect(() => {
    let current = true;
    bridge.request('pods.get', { nodeId, uid }).then(
      (d) => {
        if (!current) return;
        setDetail(d);
        setError(null);
      },
      (err: unknown) => current && setError(errorText(err)),
    );
    return () => {
      current = false;
    };
  }, [bridge, nodeId, uid, row]);

  const name = row?.name ?? detail?.summary.name ?? uid;
  const namespace = row?.namespace ?? detail?.summary.namespace ?? '';
  const tabs: [Tab, string][] = [
    ['summary', 'Summary'],
    ['json', 'JSON'],
    ['unknown', `Unknown fields${detail ? ` (${detail.unknownFields.length})` : ''}`],
  ];

  return (
    <section className="pod-detail" aria-label={`Pod ${namespace}/${name}`}>
      <header className="detail-head">
        <div className="detail-title">
          <span className="muted mono small">{namespace}</span>
          <h2 className="mono">{name}</h2>
        </div>
        {row && !detail?.notSelected.includes('status') && <span className={`pill tone-${statusTone(row)}`}>{row.deleting ? 'Terminating' : row.status}</span>}
        {!row && detail && <span className="pill tone-off">deleted</span>}
        <button type="button" className="icon-button" aria-label="Close pod detail" onClick={props.onClose}>
          ✕
        </button>
      </header>
      <div className="tabs" role="tablist" aria-label="Pod views">
        {tabs.map(([id, label]) => (
          <button key={id} type="button" role="tab" aria-selected={tab === id} className={tab === id ? 'tab active' : 'tab'} onClick={() => setTab(id)}>
            {label}
          </button>
        ))}
      </div>
      <div className="detail-body" role="tabpanel">
        {error && (
          <p className="form-error" role="alert">
            {error}
          </p>
        )}
        {!detail && !error && <p className="muted">Loading…</p>}
        {detail && tab === 'summary' && <PodSummaryView summary={detail.summary} notSelected={detail.notSelected} unknownFields={detail.unknownFields} now={now} />}
        {detail && tab === 'json' && <JsonView text={detail.json} fileName={`${namespace}_${name}.json`} />}
        {detail && tab === 'unknown' && <UnknownFieldsTable fields={detail.unknownFields} />}
      </div>
    </section>
  );
}
