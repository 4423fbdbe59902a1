import { useState } from 'react';
import { recordingFileName } from '../../app/util/default-file-names';
import { Modal } from './Modal';

/**
 * Where a recording goes, in browser mode (no save dialog there): the default path, editable. The core
 * holds the path to what it accepts (absolute, .recording or .recording.ndjson, a new file) and says why not.
 */
export function RecordDialog(props: { nodeLabel: string; defaultDir: string; onStart: (path: string) => Promise<void>; onClose: () => void }) {
  const [path, setPath] = useState(() => `${props.defaultDir}/${recordingFileName(props.nodeLabel, new Date())}`);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const start = async () => {
    setBusy(true);
    setError(null);
    try {
      await props.onStart(path.trim());
      props.onClose();
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      title={`Record ${props.nodeLabel}`}
      onClose={props.onClose}
      footer={
        <>
          <button type="button" className="button" onClick={props.onClose}>
            Cancel
          </button>
          <button type="submit" form="record-form" className="button button-primary" disabled={busy || path.trim() === ''}>
            Start recording
          </button>
        </>
      }
    >
      <form
        id="record-form"
        onSubmit={(e) => {
          e.preventDefault();
          void start();
        }}
      >
        <p className="muted small">Every change of the node is written to this file until you stop. It is created new and private to you.</p>
        <label className="field">
          <span className="field-label">File</span>
          <input
            className="mono"
            aria-label="Recording file path"
            data-autofocus
            value={path}
            spellCheck={false}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? 'record-path-error' : undefined}
            onChange={(e) => setPath(e.target.value)}
          />
        </label>
        {error && (
          <p className="form-error" role="alert" id="record-path-error">
            {error}
          </p>
        )}
      </form>
    </Modal>
  );
}
