import { useEffect, useState } from 'react';
import type { Bridge } from '../../app/contract/bridge';
import { formatSize, parseSize, SettingsChangeSchema, type MemoryUsage, type Settings, type SettingsChange } from '../../app/contract/settings';
import { errorText } from '../format/error-text';
import { Modal } from './Modal';

/** What the user typed in a field, and the setting's value shown when they started; null: the field follows the setting. */
type Edit = { text: string; over: string } | null;

/**
 * The app's settings (settings.get, settings.set): saved in the state folder and applied at once, to every
 * window. Sizes are written as operators write them (1 GiB, 512M); a wrong one is said before anything is saved.
 * The dialog follows the settings as they change (the `settings` event: another window, the app at start): a
 * field the user has not typed in shows the current value; one they typed in keeps their text, says what the
 * setting became meanwhile, and only fields typed in are saved.
 */
export function SettingsDialog(props: { bridge: Bridge; onClose: () => void; onSaved: (message: string) => void }) {
  const [settings, setSettings] = useState<Settings | null>(null);
  const [usage, setUsage] = useState<MemoryUsage | null>(null);
  const [budgetEdit, setBudgetEdit] = useState<Edit>(null);
  const [rowsOnlyEdit, setRowsOnlyEdit] = useState<Edit>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    // Subscribed before asking, so a change made meanwhile is not lost; what it says is newer than the answer.
    const off = props.bridge.on('settings', setSettings);
    props.bridge.request('settings.get', {}).then(
      (current) => setSettings((was) => was ?? current),
      (err: unknown) => setError(errorText(err)),
    );
    // Only a help to choose the budget: without it the dialog still works.
    props.bridge.request('memory.usage', {}).then(setUsage, () => undefined);
    return off;
  }, [props.bridge]);
  const currentBudget = settings ? formatSize(settings.memoryBudget) : '';
  const currentRowsOnly = settings ? String(settings.rowsOnlyAbove) : '';
  const budget = budgetEdit?.text ?? currentBudget;
  const rowsOnlyAbove = rowsOnlyEdit?.text ?? currentRowsOnly;
  const save = async () => {
    setError(null);
    const change: SettingsChange = {};
    if (budgetEdit) {
      try {
        change.memoryBudget = parseSize(budget);
      } catch (err) {
        return setError(errorText(err));
      }
    }
    if (rowsOnlyEdit) {
      const nodes = rowsOnlyAbove.trim();
      if (!/^\d+$/.test(nodes)) return setError(`"${rowsOnlyAbove}" is not a number of nodes: write a whole number, e.g. 200.`);
      change.rowsOnlyAbove = Number(nodes);
    }
    // The contract's own bounds, said here as the field's error rather than as a refused request.
    const checked = SettingsChangeSchema.safeParse(change);
    if (!checked.success) return setError(checked.error.issues.map((issue) => issue.message).join(' '));
    setBusy(true);
    try {
      const saved = await props.bridge.request('settings.set', checked.data);
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
            onChange={(e) => {
              const text = e.target.value;
              setBudgetEdit((was) => ({ text, over: was?.over ?? currentBudget }));
            }}
          />
        </label>
        <ChangedMeanwhile edit={budgetEdit} current={currentBudget} />
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
            onChange={(e) => {
              const text = e.target.value;
              setRowsOnlyEdit((was) => ({ text, over: was?.over ?? currentRowsOnly }));
            }}
          />
        </label>
        <ChangedMeanwhile edit={rowsOnlyEdit} current={currentRowsOnly} unit=" nodes" />
        <p className="muted small" id="settings-rows-only-help">
          Nodes open. Past it, every node keeps only what the table and the matrix show of its pods; a pod you open is read from the node then, and no
          pod history is kept for it. Nodes open switch at once, either way: back to whole pods, a node reads its pods again and its history starts then.
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

/** Under a field the user typed in: the setting changed since (in another window), and Save would set theirs. */
function ChangedMeanwhile(props: { edit: Edit; current: string; unit?: string }) {
  if (!props.edit || props.edit.over === props.current) return null;
  return (
    <p className="muted small" role="status">
      Changed in another window to {props.current}
      {props.unit ?? ''} since you started typing; Save sets yours.
    </p>
  );
}
