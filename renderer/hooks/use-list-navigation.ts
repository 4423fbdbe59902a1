import { useId, useState, type KeyboardEvent } from 'react';

/** The option a key makes active among `count` (↓/↑ one step, held at either end); undefined for another key. */
export function movedOption(active: number, key: string, count: number): number | undefined {
  if (key !== 'ArrowDown' && key !== 'ArrowUp') return undefined;
  return Math.max(0, Math.min(count - 1, active + (key === 'ArrowDown' ? 1 : -1)));
}

/** The active option, as shown: -1 with no option, the last one when the list shrank under it. */
export const shownOption = (active: number, count: number): number => Math.min(active, count - 1);

/**
 * A list picked from a text box, as a combobox (the : palette, "Compare with…"): ↑/↓ move the active
 * option while typing goes on in the box, Enter chooses it, and the box names it for screen readers.
 * Typing starts again from the first option (`restart`, when the query changes).
 */
export function useListNavigation(count: number, onChoose: (index: number) => void) {
  const [active, setActive] = useState(0);
  const listId = useId();
  const at = shownOption(active, count);
  const optionId = (i: number) => `${listId}-option-${i}`;
  return {
    /** The active option's index; -1 with none. */
    active: at,
    setActive,
    restart: () => setActive(0),
    /** For the text box. */
    inputProps: {
      role: 'combobox',
      'aria-expanded': true,
      'aria-controls': listId,
      'aria-activedescendant': at >= 0 ? optionId(at) : undefined,
      onKeyDown: (e: KeyboardEvent) => {
        const moved = movedOption(at, e.key, count);
        if (moved !== undefined) {
          e.preventDefault();
          setActive(moved);
        } else if (e.key === 'Enter' && at >= 0) {
          e.preventDefault();
          onChoose(at);
        }
      },
    },
    /** For the list. */
    listProps: { id: listId, role: 'listbox' },
    /** For option `i`. */
    optionProps: (i: number) => ({ id: optionId(i), role: 'option', 'aria-selected': i === at }),
  };
}
