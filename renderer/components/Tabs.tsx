import { useId, useRef, type KeyboardEvent, type ReactNode } from 'react';

/** One tab: a view of the pod detail (Summary, JSON...). A new view is one more entry. */
export interface TabItem<T extends string> {
  id: T;
  label: ReactNode;
}

/**
 * ARIA tabs as the Authoring Practices describe them: one tab stop (the selected tab), ←/→ move to
 * the previous/next tab (wrapping), Home/End to the first/last, and the selection follows the focus.
 * The panel is labelled by its tab and takes the next tab stop, so its content is one Tab away.
 */
export function Tabs<T extends string>(props: {
  label: string;
  tabs: readonly TabItem<T>[];
  selected: T;
  onSelect: (id: T) => void;
  panelClassName?: string;
  children: ReactNode;
}) {
  const prefix = useId();
  const listRef = useRef<HTMLDivElement>(null);
  const tabId = (id: T) => `${prefix}-tab-${id}`;
  const panelId = `${prefix}-panel`;
  const index = Math.max(0, props.tabs.findIndex((t) => t.id === props.selected));

  function onKeyDown(e: KeyboardEvent) {
    const last = props.tabs.length - 1;
    const moves: Record<string, number> = { ArrowLeft: index === 0 ? last : index - 1, ArrowRight: index === last ? 0 : index + 1, Home: 0, End: last };
    const target = moves[e.key];
    if (target === undefined) return;
    e.preventDefault();
    const tab = props.tabs[target]!;
    props.onSelect(tab.id);
    listRef.current?.querySelector<HTMLElement>(`#${CSS.escape(tabId(tab.id))}`)?.focus();
  }

  return (
    <>
      <div ref={listRef} className="tabs" role="tablist" aria-label={props.label} onKeyDown={onKeyDown}>
        {props.tabs.map((t) => {
          const selected = t.id === props.tabs[index]?.id;
          return (
            <button
              key={t.id}
              id={tabId(t.id)}
              type="button"
              role="tab"
              aria-selected={selected}
              aria-controls={panelId}
              tabIndex={selected ? 0 : -1}
              className={selected ? 'tab active' : 'tab'}
              onClick={() => props.onSelect(t.id)}
            >
              {t.label}
            </button>
          );
        })}
      </div>
      <div id={panelId} className={props.panelClassName} role="tabpanel" aria-labelledby={tabId(props.tabs[index]!.id)} tabIndex={0}>
        {props.children}
      </div>
    </>
  );
}
