import { useEffect, useMemo, useState } from 'react';
import type { Bridge } from '../../app/contract/bridge';
import type { NodeInfo } from '../../app/contract/nodes';
import type { PodRow } from '../../app/contract/pods';
import { matchesFilter, parseFilter } from '../../app/pod/view/filter-language';
import { errorText } from '../format/error-text';
import { useListNavigation } from '../hooks/use-list-navigation';
import { podLabel } from '../format/pod-label';
import { Modal } from './Modal';
import { PodDiffView, type DiffSide } from './PodDiffView';

/** At most this many candidates are listed; the filter narrows the rest. */
const LISTED_MAX = 200;

export interface PodOnSource {
  nodeId: string;
  uid: string;
}

interface Candidate extends PodOnSource {
  row: PodRow;
  source: string;
}

/**
 * "Compare with…": a picker over every open source's pods (typed with the pods filter language, ↑/↓
 * and Enter), then the two pods side by side. Two different UIDs turn on the noise rules for two
 * different pods (names, IPs, times); the same UID on two sources is one pod, compared as itself.
 */
export function ComparePodsDialog(props: {
  bridge: Bridge;
  nodes: readonly NodeInfo[];
  rows: (nodeId: string) => readonly PodRow[];
  /** The open pod, with its row while its source still lists it. */
  from: PodOnSource & { row: PodRow | undefined };
  /** The other pod when it is already chosen (two cells of the workload matrix): the picker is skipped. */
  to?: PodOnSource;
  onClose: () => void;
}) {
  const { bridge, from } = props;
  const [query, setQuery] = useState('');
  const [picked, setPicked] = useState<Candidate | null>(() => {
    const to = props.to;
    const row = to && props.rows(to.nodeId).find((r) => r.uid === to.uid);
    return to && row ? { ...to, row, source: props.nodes.find((n) => n.id === to.nodeId)?.label ?? to.nodeId } : null;
  });
  const [sides, setSides] = useState<{ left: DiffSide; right: DiffSide } | null>(null);
  const [error, setError] = useState<string | null>(null);
  // The open pod can be deleted while the dialog is open, or before: its row is gone then, and the
  // title keeps the name it was last known by, which the core still has with the pod's last version.
  const [lastKnown, setLastKnown] = useState<{ namespace: string; name: string } | undefined>(undefined);
  useEffect(() => {
    let current = true;
    // Unanswered, the title shows the UID as before; the comparison itself reports any error.
    bridge.request('pods.get', { nodeId: from.nodeId, uid: from.uid }).then(
      (d) => current && setLastKnown(d.summary),
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [bridge, from.nodeId, from.uid]);
  const fromLabel = podLabel(from.row ?? lastKnown, from.uid);

  const filter = useMemo(() => parseFilter(query), [query]);
  // Read afresh at each render (the App renders on every model change): the sources' pods come and go.
  const candidates = (() => {
    const all: Candidate[] = [];
    for (const node of props.nodes) {
      for (const row of props.rows(node.id)) {
        if (node.id === from.nodeId && row.uid === from.uid) continue;
        if (filter.terms.length === 0 || matchesFilter(filter, row)) all.push({ nodeId: node.id, uid: row.uid, row, source: node.label });
      }
    }
    return all;
  })();
  const listed = candidates.slice(0, LISTED_MAX);
  const list = useListNavigation(listed.length, (i) => setPicked(listed[i]!));

  useEffect(() => {
    if (!picked) return;
    let current = true;
    setSides(null);
    setError(null);
    const sourceLabel = (nodeId: string) => props.nodes.find((n) => n.id === nodeId)?.label ?? nodeId;
    Promise.all([bridge.request('pods.get', { nodeId: from.nodeId, uid: from.uid }), bridge.request('pods.get', { nodeId: picked.nodeId, uid: picked.uid })]).then(
      ([l, r]) =>
        current &&
        setSides({
          left: { label: `${l.summary.namespace}/${l.summary.name} · ${sourceLabel(from.nodeId)}`, json: l.json },
          right: { label: `${r.summary.namespace}/${r.summary.name} · ${sourceLabel(picked.nodeId)}`, json: r.json },
        }),
      (err: unknown) => current && setError(errorText(err)),
    );
    return () => {
      current = false;
    };
  }, [bridge, picked, from.nodeId, from.uid]);

  const title = picked ? `Compare ${fromLabel} with ${podLabel(picked.row, picked.uid)}` : `Compare ${fromLabel} with…`;

  return (
    <Modal title={title} onClose={props.onClose} size="full">
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      {picked ? (
        <>
          <div className="diff-toolbar">
            <button type="button" className="button small" onClick={() => setPicked(null)}>
              ← Pick another pod
            </button>
          </div>
          {sides ? <PodDiffView left={sides.left} right={sides.right} differentPods={from.uid !== picked.uid} /> : !error && <p className="muted">Loading both pods…</p>}
        </>
      ) : (
        <div className="pod-picker">
          <input
            type="search"
            className="search mono"
            data-autofocus
            placeholder="Filter pods of every open source   ns:  phase:  label:k=v  owner:  node:"
            {...list.inputProps}
            aria-label="Filter pods to compare with"
            spellCheck={false}
            value={query}
            onChange={(e) => {
              setQuery(e.target.value);
              list.restart();
            }}
          />
          {filter.errors.length > 0 && (
            <span className="field-error" role="alert">
              {filter.errors[0]}
            </span>
          )}
          <p className="muted small" aria-live="polite">
            {candidates.length === 0
              ? 'No pod of an open source matches.'
              : candidates.length > listed.length
                ? `${listed.length} of ${candidates.length} pods listed: narrow the filter to see the others.`
                : `${candidates.length} pod${candidates.length === 1 ? '' : 's'}`}
          </p>
          <ul className="picker-list" {...list.listProps} aria-label="Pods to compare with">
            {listed.map((c, i) => (
              <li
                key={`${c.nodeId}/${c.uid}`}
                {...list.optionProps(i)}
                className={i === list.active ? 'picker-option active' : 'picker-option'}
                onMouseEnter={() => list.setActive(i)}
                onClick={() => setPicked(c)}
              >
                <span className="muted mono small">{c.row.namespace}</span>
                <span className="mono">{c.row.name}</span>
                <span className="spacer" />
                {c.uid === from.uid && <span className="tag">same pod</span>}
                <span className="muted small">{c.source}</span>
              </li>
            ))}
          </ul>
        </div>
      )}
    </Modal>
  );
}
