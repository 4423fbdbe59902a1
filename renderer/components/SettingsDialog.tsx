import { useEffect, useState } from 'react';
import type { Bridge } from '../../app/contract/bridge';
import { formatSize, parseSize, SettingsChangeSchema, type MemoryUsage, type Settings } from '../../app/contract/settings';
import { errorText } from '../format/error-text';
import { Modal } from './Modal';

/**
 * The app's settings (settings.get, settings.set): saved in the state folder and applied at once, to every
 * window. Sizes are written as operators write them (1 GiB, 512M); a wrong one is said before anything is saved.
 */
export function SettingsDialog(props: { bridge: Bridge; onClose: () => void; onSaved: (message: string) => void }) {
  const [settings, setSettings] = useState<Settings | null>(null);
  const [usage, setUsage] = useState<MemoryUsage | null>(null);
  const [budget, setBudget] = useState('');
  const [rowsOnlyAbove, setRowsOnlyAbove] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    props.bridge.request('settings.get', {}).then(
      (current) => {
        setSettings(current);
        setBudget(formatSize(current.memoryBudget));
        setRowsOnlyAbove(String(current.rowsOnlyAbove));
      },
      (err: unknown) => setError(errorText(err)),
    );
    // Only a help to choose the budget: without it the dialog still works.
    props.bridge.request('memory.usage', {}).then(setUsage, () => undefined);
  }, [props.bridge]);
  const save = async () => {
    setError(null);
    let memoryBudget: number;
    try {
      memoryBudget = parseSize(budget);
    } catch (err) {
      return setError(errorText(err));
    }
    const nodes = rowsOnlyAbove.trim();
    if (!/^\d+$/.test(nodes)) return setError(`"${rowsOnlyAbove}" is not a number of nodes: write a whole number, e.g. 200.`);
    // The contract's own bounds, said here as the field's error rather than as a refused request.
    const change = SettingsChangeSchema.safeParse({ memoryBudget, rowsOnlyAbove: Number(nodes) });
    if (!change.success) return setError(change.error.issues.map((issue) => issue.message).join(' '));
    setBusy(true);
    try {
      const saved = await props.bridge.request('settings.set', change.data);
      props.onSaved(`Settings saved: memory budget ${formatSize(saved.memoryBudget)}, rows only above ${saved.rowsOnlyAbove} nodes.`);
      props.onClose();
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      title="Settings"
      onClose={props.onClose}
      footer={
        <>
          <button type="button" className="button" onClick={props.onClose}>
            Cancel
          </button>
          <button type="submit" form="settings-form" className="button button-primary" disabled={busy || settings === null}>
            Save
          </button>
        </>
      }
    >
      <form
        id="settings-form"
        className="node-form"
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <label className="field">
          <span className="field-label">Memory budget</span>
          <input
            className="mono"
            aria-label="Memory budget"
            data-autofocus
            value={budget}
            spellCheck={false}
            readOnly={settings === null}
            aria-invalid={error ? true : undefined}
            aria-describedby="settings-budget-help"
            onChange={(e) => setBudget(e.target.value)}
          />
        </label>
        <p className="muted small" id="settings-budget-help">
          What Nodescope may hold of pods across all sources: their current pods, earlier versions and kept crash logs (e.g. 1 GiB, 512 MiB). Past it the
          oldest earlier versions go first, then crash logs; current pods are always kept. Each drop is said in a notice.
          {usage && ` Held now: about ${formatSize(usage.held)}.`}
        </p>
        <label className="field">
          <span className="field-label">Keep rows only above</span>
          <input
            className="mono"
            aria-label="Keep rows only above"
            inputMode="numeric"
            value={rowsOnlyAbove}
            spellCheck={false}
            disabled={settings === null}
            aria-describedby="settings-rows-only-help"
            onChange={(e) => setRowsOnlyAbove(e.target.value)}
          />
        </label>
        <p className="muted small" id="settings-rows-only-help">
          Nodes open. Past it, a node connecting keeps only what the table and the matrix show of its pods; a pod you open is read from the node then, and no
          pod history is kept for it. Applies to nodes as they connect: connect a node again to apply it there.
        </p>
        {error && (
          <p className="form-error" role="alert">
            {error}
          </p>
        )}
      </form>
    </Modal>
  );
}
