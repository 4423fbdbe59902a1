import { useMemo, useState } from 'react';
import { useListNavigation } from '../hooks/use-list-navigation';
import { matchPalette, type PaletteItem } from '../keys/palette-match';
import { Modal } from './Modal';

/** The : palette: type part of a node, a group, a view or a command, Enter goes there (or runs it). Esc closes. */
export function CommandPalette(props: { items: readonly PaletteItem[]; onClose: () => void }) {
  const [query, setQuery] = useState('');
  const shown = useMemo(() => matchPalette(query, props.items), [query, props.items]);
  const choose = (item: PaletteItem) => {
    props.onClose();
    item.run();
  };
  const list = useListNavigation(shown.length, (i) => choose(shown[i]!));
  return (
    <Modal title="Go to or run" onClose={props.onClose}>
      <input
        className="palette-input"
        data-autofocus
        {...list.inputProps}
        aria-label="Node, group, view or command"
        placeholder="worker-1, a group, JSON, export…"
        spellCheck={false}
        value={query}
        onChange={(e) => {
          setQuery(e.target.value);
          list.restart();
        }}
      />
      <ul {...list.listProps} aria-label="Matches" className="palette-list">
        {shown.length === 0 && <li className="muted">Nothing matches: try part of a node's name, or "export", "record", "help".</li>}
        {shown.map((item, i) => (
          <li
            key={`${item.kind}:${item.label}`}
            {...list.optionProps(i)}
            className={i === list.active ? 'palette-option active' : 'palette-option'}
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
