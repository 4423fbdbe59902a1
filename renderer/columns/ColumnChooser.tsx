import { useId, useMemo, useState } from 'react';
import type { ColumnLayout, SavedView } from '../../app/contract/table-views';
import { maskTree, maskTreeNode, walkMaskTree } from '../../app/mask/mask-tree';
import { Modal } from '../components/Modal';
import { columnOf, isShown, reduceColumns, type ColumnAction } from './column-layout';
import { isFieldKey } from './field-key';

/**
 * The pod table's columns (show, hide, reorder, add a column of any pod field, as k9s's custom columns
 * and Headlamp's chooser) and the saved views: the filter, columns and sort under a name.
 */
export function ColumnChooser(props: {
  layout: ColumnLayout;
  /** Columns no row in view has data for: hidden unless the user shows them. */
  empty: ReadonlySet<string>;
  onChange: (layout: ColumnLayout) => void;
  saved: readonly SavedView[];
  /** Saves the filter, sort and these columns under the name. */
  onSaveView: (name: string) => void;
  onApplyView: (view: SavedView) => void;
  onDeleteView: (name: string) => void;
  /** The filter a view saved now keeps, shown beside its name field. */
  filter: string;
  /** Why the last change was not saved. */
  problem: string | null;
  onClose: () => void;
}) {
  const [path, setPath] = useState('');
  const [pathError, setPathError] = useState<string | null>(null);
  const [viewName, setViewName] = useState('');
  const listId = useId();
  const paths = useMemo(() => [...walkMaskTree(maskTree())].map((n) => n.path), []);
  const act = (action: ColumnAction) => props.onChange(reduceColumns(props.layout, action));
  const entries = props.layout.columns.flatMap((entry) => {
    const column = columnOf(entry.id);
    return column ? [{ entry, column, shown: isShown(entry, props.empty) }] : [];
  });
  const addField = () => {
    const wanted = path.trim().replace(/^\./, '');
    if (!maskTreeNode(wanted)) {
      setPathError(`No pod field is called "${wanted}". Pick one from the list, e.g. spec.priorityClassName or status.containerStatuses.image.`);
      return;
    }
    setPathError(null);
    setPath('');
    act({ type: 'addField', path: wanted });
  };

  return (
    <Modal title="Columns and views" onClose={props.onClose} wide footer={<button type="button" className="button" onClick={() => act({ type: 'reset' })}>Default columns</button>}>
      {props.problem && (
        <p className="form-error" role="alert">
          {props.problem}
        </p>
      )}
      <ol className="column-list" aria-label="Columns">
        {entries.map(({ entry, column, shown }, i) => (
          <li key={entry.id} className="column-entry">
            <label className="check" title={column.path ?? column.label}>
              <input
                type="checkbox"
                checked={shown}
                data-autofocus={i === 0 ? '' : undefined}
                onChange={() => act({ type: 'toggle', id: entry.id, shownNow: shown })}
              />
              {column.path ? <span className="mono">{column.path}</span> : column.label}
              {entry.shown === undefined && props.empty.has(entry.id) && <span className="muted small">no data in view</span>}
            </label>
            <span className="column-moves">
              <button type="button" className="icon-button" aria-label={`Move ${column.label} up`} disabled={i === 0} onClick={() => act({ type: 'move', id: entry.id, by: -1 })}>
                ↑
              </button>
              <button type="button" className="icon-button" aria-label={`Move ${column.label} down`} disabled={i === entries.length - 1} onClick={() => act({ type: 'move', id: entry.id, by: 1 })}>
                ↓
              </button>
              {isFieldKey(entry.id) && (
                <button type="button" className="icon-button" aria-label={`Remove the ${column.path} column`} onClick={() => act({ type: 'remove', id: entry.id })}>
                  ✕
                </button>
              )}
            </span>
          </li>
        ))}
      </ol>
      <form
        className="column-add"
        onSubmit={(e) => {
          e.preventDefault();
          addField();
        }}
      >
        <label className="field">
          <span className="field-label">Add a column of a pod field</span>
          <input className="mono" list={listId} value={path} spellCheck={false} placeholder="spec.priorityClassName" aria-invalid={pathError ? true : undefined} onChange={(e) => setPath(e.target.value)} />
          <datalist id={listId}>
            {paths.map((p) => (
              <option key={p} value={p} />
            ))}
          </datalist>
        </label>
        <button type="submit" className="button" disabled={path.trim() === ''}>
          Add column
        </button>
        {pathError && (
          <p className="form-error" role="alert">
            {pathError}
          </p>
        )}
      </form>
      <section aria-label="Saved views" className="saved-views">
        <form
          className="column-add"
          onSubmit={(e) => {
            e.preventDefault();
            if (viewName.trim() === '') return;
            props.onSaveView(viewName.trim());
            setViewName('');
          }}
        >
          <label className="field">
            <span className="field-label">Save the filter{props.filter ? ` (${props.filter})` : ''}, sort and columns as a view</span>
            <input value={viewName} maxLength={60} placeholder="Crash loops" onChange={(e) => setViewName(e.target.value)} />
          </label>
          <button type="submit" className="button" disabled={viewName.trim() === ''}>
            Save view
          </button>
        </form>
        {props.saved.length > 0 && (
          <ul className="column-list">
            {props.saved.map((v) => (
              <li key={v.name} className="column-entry">
                <button type="button" className="button small" onClick={() => props.onApplyView(v)} title={v.filter ? `Filter: ${v.filter}` : 'No filter'}>
                  {v.name}
                </button>
                <span className="muted small mono">{v.filter}</span>
                <button type="button" className="icon-button" aria-label={`Delete the view ${v.name}`} onClick={() => props.onDeleteView(v.name)}>
                  ✕
                </button>
              </li>
            ))}
          </ul>
        )}
      </section>
    </Modal>
  );
}
