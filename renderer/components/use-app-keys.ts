import type { RefObject } from 'react';
import type { SortKey } from '../filter/sort-rows';
import type { Move } from '../keys/key-bindings';
import { moveSelection } from '../keys/move-selection';
import { isTyping } from '../keys/key-bindings';
import { useKeyListener, useShortcuts } from '../keys/use-shortcuts';

type AppDialog = 'help' | 'palette' | 'comparePod' | 'export' | 'compareSources' | 'columns' | 'settings';

/** The page's own keys (key-bindings.ts): filter, help, palette, pod moves, sorting, dialogs and Esc. */
export function useAppKeys(a: {
  filterRef: RefObject<HTMLInputElement | null>;
  filterText: string;
  setFilterText: (text: string) => void;
  openUid: string | null;
  closePod: () => void;
  selectedUid: string | null;
  selectPod: (uid: string) => void;
  /** The uids of the rows the table shows, in order; null when no pod table is shown. */
  shownUids: (() => string[]) | null;
  sortBy: (key: SortKey) => void;
  setDialog: (dialog: AppDialog) => void;
  canExport: boolean;
  hasNode: boolean;
}): void {
  useKeyListener();
  const table = a.shownUids;
  useShortcuts({
    filter: () => {
      a.filterRef.current?.focus();
      a.filterRef.current?.select();
    },
    help: () => a.setDialog('help'),
    palette: () => a.setDialog('palette'),
    settings: () => a.setDialog('settings'),
    move: table
      ? (move) => {
          const uid = moveSelection(table(), a.selectedUid, move as Move);
          if (uid) a.selectPod(uid);
          // The grid takes the focus, so Enter opens and the arrows go on from here.
          document.querySelector<HTMLElement>('.pods-grid')?.focus();
        }
      : undefined,
    sort: table ? (key) => a.sortBy(key as SortKey) : undefined,
    columns: table ? () => a.setDialog('columns') : undefined,
    comparePod: a.openUid ? () => a.setDialog('comparePod') : undefined,
    export: a.canExport ? () => a.setDialog('export') : undefined,
    compareSources: a.hasNode ? () => a.setDialog('compareSources') : undefined,
    escape: () => {
      const target = document.activeElement;
      if (target === a.filterRef.current && a.filterText) a.setFilterText('');
      else if (a.openUid) a.closePod();
      else if (isTyping(target)) (target as HTMLElement).blur();
    },
  });
}
