import { useId, useMemo, useState } from 'react';
import { matchPalette, type PaletteItem } from '../keys/palette-match';
import { Modal } from './Modal';

/** The : palette: type part of a node, a group, a view or a command, Enter goes there (or runs it). Esc closes. */
export function CommandPalette(props: { items: readonly PaletteItem[]; onClose: () => void }) {
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const listId = useId();
  const shown = useMemo(() => matchPalette(query, props.items), [query, props.items]);
  const at = Math.min(active, shown.length - 1);
  const choose = (item: PaletteItem | undefined) => {
    if (!item) return;
    props.onClose();
    item.run();
  };
  const optionId = (i: number) => `${listId}-${i}`;
  return (
    <Modal title="Go to or run" onClose={props.onClose}>
      <input
        className="palette-input"
        data-autofocus
        role="combobox"
        aria-label="Node, group, view or command"
        aria-expanded="true"
        aria-controls={listId}
        aria-activedescendant={at >= 0 ? optionId(at) : undefined}
        placeholder="worker-1, a group, JSON, export…"
        spellCheck={false}
        value={query}
        onChange={(e) => {
          setQuery(e.target.value);
          setActive(0);
        }}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
            e.preventDefault();
            setActive(Math.max(0, Math.min(shown.length - 1, at + (e.key === 'ArrowDown' ? 1 : -1))));
          } else if (e.key === 'Enter') {
            e.preventDefault();
            choose(shown[at]);
          }
        }}
      />
      <ul id={listId} role="listbox" aria-label="Matches" className="palette-list">
        {shown.length === 0 && <li className="muted">Nothing matches: try part of a node's name, or "export", "record", "help".</li>}
        {shown.map((item, i) => (
          <li
            key={`${item.kind}:${item.label}`}
            id={optionId(i)}
            role="option"
            aria-selected={i === at}
            className={i === at ? 'palette-option active' : 'palette-option'}
            onMouseDown={(e) => e.preventDefault()}
            onClick={() => choose(item)}
          >
            <span className="muted small palette-kind">{item.kind}</span> {item.label}
          </li>
        ))}
      </ul>
    </Modal>
  );
}
