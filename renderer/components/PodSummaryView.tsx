import type { ReactNode } from 'react';
import type { ContainerStateView, ContainerView, PodSummary, UnknownFieldView } from '../../app/contract/pods';
import type { SummaryField } from '../../app/pod/view/pod-field-sources';
import { formatAge } from '../format/age';
import { NotSelected } from './NotSelected';

/** The summary's values the field mask left out (SUMMARY_FIELD_SOURCES keys). */
type Hidden = (field: SummaryField) => boolean;

function stateText(s: ContainerStateView): string {
  const parts: string[] = [s.kind === 'unknown' ? 'no status yet' : s.kind];
  if (s.reason) parts.push(s.reason);
  if (s.exitCode !== undefined) parts.push(`exit ${s.exitCode}`);
  if (s.signal !== undefined) parts.push(`signal ${s.signal}`);
  return parts.join(' · ');
}

/** "ran 9s, ended 3h ago": how long the last run lasted and how long ago it stopped. */
function terminationTimes(t: ContainerStateView, now: number): string {
  const started = t.startedAt ? Date.parse(t.startedAt) : NaN;
  const finished = t.finishedAt ? Date.parse(t.finishedAt) : NaN;
  const parts: string[] = [];
  if (!Number.isNaN(started) && !Number.isNaN(finished)) parts.push(`ran ${formatAge(t.startedAt!, finished)}`);
  if (!Number.isNaN(finished)) parts.push(`ended ${formatAge(t.finishedAt!, now)} ago`);
  return parts.join(', ');
}

const STATE_TONE: Record<ContainerStateView['kind'], string> = { running: 'ok', waiting: 'wait', terminated: 'off', unknown: 'off' };

function Container({ c, now, hidden }: { c: ContainerView; now: number; hidden: Hidden }) {
  const tone = c.state.kind === 'terminated' && c.state.exitCode !== 0 ? 'bad' : c.state.kind === 'waiting' && c.state.reason && /BackOff|Err|Invalid/.test(c.state.reason) ? 'bad' : STATE_TONE[c.state.kind];
  return (
    <article className="container-card" aria-label={`${c.kind} container ${c.name}`}>
      <header>
        <span className={`tag kind-${c.kind}`}>{c.kind}</span>
        <strong className="mono">{c.name}</strong>
        {hidden('containers.state') ? <NotSelected /> : <span className={`pill tone-${tone}`}>{stateText(c.state)}</span>}
        <span className="spacer" />
        {!hidden('containers.ready') && <span className={c.ready ? 'tone-text-ok small' : 'muted small'}>{c.ready ? 'ready' : 'not ready'}</span>}
        {!hidden('containers.restarts') && <span className={c.restarts > 0 ? 'tone-text-wait small' : 'muted small'}>{c.restarts} restarts</span>}
      </header>
      <dl className="facts compact">
        <dt>Image</dt>
        <dd className="mono wrap">{hidden('containers.image') ? <NotSelected /> : c.image}</dd>
        {c.state.startedAt && (
          <>
            <dt>Started</dt>
            <dd>
              {c.state.startedAt} <span className="muted">({formatAge(c.state.startedAt, now)} ago)</span>
            </dd>
          </>
        )}
        {c.state.message && (
          <>
            <dt>Message</dt>
            <dd className="wrap">{c.state.message}</dd>
          </>
        )}
        {c.lastTermination && (
          <>
            <dt>Last termination</dt>
            <dd>
              <span className={c.lastTermination.exitCode ? 'tone-text-bad' : ''}>
                exit {c.lastTermination.exitCode}
                {c.lastTermination.reason && ` · ${c.lastTermination.reason}`}
                {c.lastTermination.signal !== undefined && ` · signal ${c.lastTermination.signal}`}
              </span>
              <span className="muted" title={`${c.lastTermination.startedAt ?? '?'} → ${c.lastTermination.finishedAt ?? '?'}`}>
                {' '}
                {terminationTimes(c.lastTermination, now)}
              </span>
              {c.lastTermination.message && <span className="block wrap">{c.lastTermination.message}</span>}
            </dd>
          </>
        )}
        {c.probes.map((p) => (
          <div key={p.kind} className="contents">
            <dt>{p.kind} probe</dt>
            <dd className="mono">{p.description}</dd>
          </div>
        ))}
        {(Object.keys(c.requests).length > 0 || Object.keys(c.limits).length > 0) && (
          <>
            <dt>Resources</dt>
            <dd className="mono">
              {Object.entries(c.requests).map(([k, v]) => `${k} ${v}`).join(', ') || 'no requests'}
              <span className="muted"> / limits </span>
              {Object.entries(c.limits).map(([k, v]) => `${k} ${v}`).join(', ') || 'none'}
            </dd>
          </>
        )}
        {c.ports.length > 0 && (
          <>
            <dt>Ports</dt>
            <dd className="mono">{c.ports.join(', ')}</dd>
          </>
        )}
      </dl>
    </article>
  );
}

export function UnknownFieldsTable({ fields }: { fields: readonly UnknownFieldView[] }) {
  if (fields.length === 0) return <p className="muted">Every field of this pod is known to Nodescope’s schema.</p>;
  return (
    <>
      <p className="muted">This kubelet sent fields newer than Nodescope’s schema. They are kept and shown by number.</p>
      <table className="data-table">
        <thead>
          <tr>
            <th>Path</th>
            <th>Field</th>
            <th>Wire type</th>
            <th>Raw (hex)</th>
          </tr>
        </thead>
        <tbody>
          {fields.map((f, i) => (
            <tr key={i}>
              <td className="mono">{f.path || '(pod)'}</td>
              <td className="mono">#{f.fieldNumber}</td>
              <td>{['varint', 'fixed64', 'length-delimited', 'start group', 'end group', 'fixed32'][f.wireType] ?? f.wireType}</td>
              <td className="mono wrap">{f.rawHex || '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

export function PodSummaryView({
  summary: s,
  notSelected = [],
  unknownFields,
  now,
}: {
  summary: PodSummary;
  notSelected?: readonly string[];
  unknownFields: readonly UnknownFieldView[];
  now: number;
}) {
  const labels = Object.entries(s.labels);
  const hidden: Hidden = (field) => notSelected.includes(field);
  // A value the mask left out is marked as such, never shown as empty.
  const show = (field: SummaryField, value: ReactNode) => (hidden(field) ? <NotSelected /> : value);
  return (
    <div className="summary">
      <dl className="facts grid">
        <dt>Namespace</dt>
        <dd className="mono">{show('namespace', s.namespace)}</dd>
        <dt>Node</dt>
        <dd className="mono">{show('node', s.node || '—')}</dd>
        <dt>Pod IP</dt>
        <dd className="mono">{show('podIP', s.podIP || '—')}</dd>
        <dt>Host IP</dt>
        <dd className="mono">{show('hostIP', s.hostIP || '—')}</dd>
        <dt>Owner</dt>
        <dd className="mono">{show('owner', s.ownerKind ? `${s.ownerKind}/${s.ownerName}` : '—')}{s.isStatic && <span className="tag">static</span>}</dd>
        <dt>Created</dt>
        <dd>{show('createdAt', s.createdAt ? `${formatAge(s.createdAt, now)} ago` : '—')}</dd>
        <dt>QoS</dt>
        <dd>{show('qosClass', s.qosClass || '—')}</dd>
        <dt>Service account</dt>
        <dd className="mono">{show('serviceAccount', s.serviceAccount || '—')}</dd>
        <dt>Restart policy</dt>
        <dd>{show('restartPolicy', s.restartPolicy || '—')}</dd>
        <dt>Priority class</dt>
        <dd>{show('priorityClassName', s.priorityClassName || '—')}</dd>
      </dl>
      {labels.length > 0 && (
        <section aria-label="Labels">
          <h3>Labels</h3>
          <div className="chips">
            {labels.map(([k, v]) => (
              <span key={k} className="chip mono">
                {k}={v}
              </span>
            ))}
          </div>
        </section>
      )}
      <section aria-label="Conditions">
        <h3>Conditions</h3>
        {hidden('conditions') ? (
          <p>
            <NotSelected />
          </p>
        ) : s.conditions.length === 0 ? (
          <p className="muted">None reported.</p>
        ) : (
          <table className="data-table">
            <tbody>
              {s.conditions.map((c) => (
                <tr key={c.type}>
                  <td>{c.type}</td>
                  <td className={c.status === 'True' ? 'tone-text-ok' : c.status === 'False' ? 'tone-text-wait' : ''}>{c.status}</td>
                  <td className="muted nowrap">{c.lastTransitionTime ? `${formatAge(c.lastTransitionTime, now)} ago` : ''}</td>
                  <td className="wrap">{[c.reason, c.message].filter(Boolean).join(': ')}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      <section aria-label="Containers">
        <h3>Containers</h3>
        {hidden('containers') ? (
          <p>
            <NotSelected />
          </p>
        ) : (
          s.containers.map((c, i) => <Container key={`${c.kind}/${c.name}/${i}`} c={c} now={now} hidden={hidden} />)
        )}
      </section>
      {s.volumes.length > 0 && (
        <section aria-label="Volumes">
          <h3>Volumes</h3>
          <table className="data-table">
            <tbody>
              {s.volumes.map((v) => (
                <tr key={v.name}>
                  <td className="mono">{v.name}</td>
                  <td>{v.kind}</td>
                  <td className="mono wrap">{v.detail}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      )}
      {unknownFields.length > 0 && (
        <section aria-label="Unknown fields">
          <h3>Unknown fields</h3>
          <UnknownFieldsTable fields={unknownFields} />
        </section>
      )}
    </div>
  );
}
