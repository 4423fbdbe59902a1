import type { ReactNode, RefObject } from 'react';
import type { ParsedFilter } from '../../app/pod/view/filter-language';

/** The filter box over the pods table, the Help and Columns buttons, the filter's first error and `children` (notes on it). */
export function FilterBar(props: {
  filterRef: RefObject<HTMLInputElement | null>;
  text: string;
  filter: ParsedFilter;
  onChange: (text: string) => void;
  /** ↓ or Enter in the box: go to the table's rows. */
  onEnterTable: () => void;
  onHelp: () => void;
  onColumns: () => void;
  children?: ReactNode;
}) {
  return (
    <div className="filter-bar">
      <input
        ref={props.filterRef}
        type="search"
        className="search filter-input mono"
        placeholder="Filter pods   ns:  phase:  label:k=v  owner:  node:  is:static  probe:failed   -negate      ( / )"
        aria-label="Filter pods"
        aria-keyshortcuts="/"
        aria-invalid={props.filter.errors.length > 0 ? true : undefined}
        spellCheck={false}
        value={props.text}
        onChange={(e) => props.onChange(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown' || e.key === 'Enter') {
            e.preventDefault();
            props.onEnterTable();
          }
        }}
      />
      <button type="button" className="button help-button" aria-keyshortcuts="?" onClick={props.onHelp}>
        Help <kbd>?</kbd>
      </button>
      <button type="button" className="button" aria-keyshortcuts="v" onClick={props.onColumns}>
        Columns <kbd>v</kbd>
      </button>
      {props.filter.errors.length > 0 && (
        <span className="field-error filter-error" role="alert">
          {props.filter.errors[0]}
        </span>
      )}
      {props.children}
    </div>
  );
}
