import { useEffect, useRef, useState } from 'react';
import type { Bridge } from '../../app/contract/bridge';
import { ContractError } from '../../app/contract/errors';
import { EXPORT_EXTENSION, type ExportFormat, type ExportResult } from '../../app/contract/pods';
import type { JobProgress } from '../../app/contract/jobs';
import type { RequestOutput } from '../../app/contract/requests';
import { exportFileName } from '../../app/util/default-file-names';
import { formatBytes } from '../format/age';
import { Modal } from './Modal';
import { errorText } from '../format/error-text';

/**
 * Exports the node's pods (or the filtered ones) as a kubectl List (JSON or YAML) or NDJSON; the host writes the file atomically.
 * With a native save dialog (Electron) the dialog names the file and asks before replacing one; in a browser
 * the path is typed here, and an existing file is replaced only after the user says so. The export is a job:
 * the dialog shows the pods written of all, and Cancel (or Escape) stops it, leaving no file behind.
 */
export function ExportDialog(props: {
  bridge: Bridge;
  nodeId: string;
  nodeLabel: string;
  filteredUids: readonly string[];
  totalCount: number;
  /** The node's field mask ('' for none): a masked export holds only its fields. */
  mask: string;
  onClose: () => void;
}) {
  const [info, setInfo] = useState<RequestOutput<'app.info'> | null>(null);
  const [scope, setScope] = useState<'all' | 'filtered'>(props.filteredUids.length < props.totalCount ? 'filtered' : 'all');
  const [format, setFormat] = useState<ExportFormat>('list');
  const [path, setPath] = useState('');
  const [busy, setBusy] = useState(false);
  /** The export under way: pods written of all, once the host has started writing. */
  const [progress, setProgress] = useState<JobProgress | null>(null);
  const job = useRef<AbortController | null>(null);
  // The dialog going away stops its export: nothing is written for a dialog nobody sees.
  useEffect(() => () => job.current?.abort(), []);
  const [result, setResult] = useState<ExportResult | null>(null);
  const [error, setError] = useState<string | null>(null);
  /** The input field the last error is about (the host names it), highlighted until edited. */
  const [badField, setBadField] = useState<string | null>(null);
  /** The typed path exists; the next export replaces it only if the user confirms. */
  const [exists, setExists] = useState(false);

  useEffect(() => {
    props.bridge.request('app.info', {}).then(setInfo, (err: unknown) => setError(errorText(err)));
  }, [props.bridge]);
  useEffect(() => {
    if (!info) return;
    setPath(`${info.defaultExportDir.replace(/\/$/, '')}/${exportFileName(props.nodeLabel, EXPORT_EXTENSION[format], new Date())}`);
    // Only when the defaults arrive: later format changes go through chooseFormat and keep edits.
  }, [info, props.nodeLabel]);
  // An edited path is a new question: not known to exist, no longer the one an error was about.
  const editPath = (next: (p: string) => string) => {
    setPath(next);
    setExists(false);
    if (badField === 'path') setBadField(null);
  };
  // Switching format switches the extension and keeps whatever else the user typed.
  const chooseFormat = (next: ExportFormat) => {
    setFormat(next);
    editPath((p) => p.replace(/\.(json|ndjson|yaml)$/, EXPORT_EXTENSION[next]));
  };

  async function run(target: { path: string; replace: boolean } | 'dialog') {
    const mine = new AbortController();
    job.current = mine;
    setBusy(true);
    setProgress(null);
    setError(null);
    setBadField(null);
    setResult(null);
    try {
      const uids = scope === 'all' ? ('all' as const) : [...props.filteredUids];
      const input = { nodeId: props.nodeId, uids, format, ...(target === 'dialog' ? {} : target) };
      setResult(await props.bridge.request('pods.export', input, { signal: mine.signal, onProgress: setProgress }));
      setExists(false);
    } catch (err) {
      if (mine.signal.aborted) setResult({ status: 'cancelled' });
      else {
        setError(errorText(err));
        if (err instanceof ContractError) {
          setBadField(err.field ?? null);
          setExists(err.code === 'file-exists');
        }
      }
    } finally {
      if (job.current === mine) job.current = null;
      setBusy(false);
    }
  }

  /** Stops the export under way; the host removes what it had written. */
  const cancelExport = () => job.current?.abort();

  const count = scope === 'all' ? props.totalCount : props.filteredUids.length;
  return (
    <Modal
      title="Export pods"
      onClose={props.onClose}
      // Escape stops an export under way first; the next one closes the dialog.
      onEscape={busy ? cancelExport : props.onClose}
      footer={
        <>
          <button type="button" className="button" onClick={busy ? cancelExport : props.onClose}>
            {result?.status === 'saved' ? 'Done' : 'Cancel'}
          </button>
          {info?.canPickFiles ? (
            <button type="button" className="button primary" disabled={busy || count === 0} onClick={() => void run('dialog')}>
              {busy ? 'Exporting…' : `Export ${count} pods…`}
            </button>
          ) : exists ? (
            <button type="button" className="button primary" disabled={busy || count === 0} onClick={() => void run({ path, replace: true })}>
              {busy ? 'Exporting…' : 'Replace the file'}
            </button>
          ) : (
            <button type="button" className="button primary" disabled={busy || count === 0 || !path || !info} onClick={() => void run({ path, replace: false })}>
              {busy ? 'Exporting…' : `Export ${count} pods`}
            </button>
          )}
        </>
      }
    >
      <fieldset className="choices">
        <legend>Pods</legend>
        <label className="check">
          {/* The dialog opens on its first choice (the one made), not on its ✕, where Enter would close it. */}
          <input type="radio" name="scope" checked={scope === 'all'} data-autofocus={scope === 'all' ? '' : undefined} onChange={() => setScope('all')} />
          All pods on {props.nodeLabel} ({props.totalCount})
        </label>
        <label className="check">
          <input type="radio" name="scope" checked={scope === 'filtered'} data-autofocus={scope === 'filtered' ? '' : undefined} disabled={props.filteredUids.length === 0} onChange={() => setScope('filtered')} />
          The filtered pods ({props.filteredUids.length})
        </label>
      </fieldset>
      <fieldset className="choices">
        <legend>Format</legend>
        <label className="check">
          <input type="radio" name="format" checked={format === 'list'} onChange={() => chooseFormat('list')} />
          kubectl List JSON <span className="muted">(same bytes as kubectl get pods -o json)</span>
        </label>
        <label className="check">
          <input type="radio" name="format" checked={format === 'ndjson'} onChange={() => chooseFormat('ndjson')} />
          NDJSON <span className="muted">(one pod per line, for jq and log tools)</span>
        </label>
        <label className="check">
          <input type="radio" name="format" checked={format === 'yaml'} onChange={() => chooseFormat('yaml')} />
          kubectl List YAML <span className="muted">(same bytes as kubectl get pods -o yaml)</span>
        </label>
      </fieldset>
      {props.mask && (
        <p className="muted" role="note">
          Masked export: each pod holds exactly the fields of the mask <span className="mono">{props.mask}</span> (plus apiVersion and kind), as kubectl prints them. It is not a full kubectl pod.
        </p>
      )}
      {/* With a native dialog the page never names the file: the dialog does. */}
      {info && !info.canPickFiles && (
        <label className="field">
          <span className="field-label">File</span>
          <input
            className="mono"
            aria-label="Export file path"
            aria-invalid={badField === 'path' ? true : undefined}
            aria-describedby={badField === 'path' && error ? 'export-path-error' : undefined}
            value={path}
            spellCheck={false}
            onChange={(e) => editPath(() => e.target.value)}
          />
        </label>
      )}
      {busy && (
        <div className="export-progress" role="status">
          <progress max={progress?.total || 1} value={progress?.done ?? 0} aria-label="Export progress" />
          <span className="small muted">{progress ? `Writing ${progress.done} of ${progress.total} pods…` : 'Starting…'}</span>
        </div>
      )}
      {error && (
        <p className="form-error" role="alert" id={badField === 'path' ? 'export-path-error' : undefined}>
          {error}
        </p>
      )}
      {result?.status === 'saved' && (
        <p className="success" role="status">
          Saved {result.count} pods ({formatBytes(result.bytes)}) to <span className="mono">{result.path}</span>
        </p>
      )}
      {result?.status === 'saved' && result.warning && <p className="muted small">{result.warning}.</p>}
      {result?.status === 'cancelled' && <p className="muted">Export cancelled: no file was written.</p>}
    </Modal>
  );
}
