import type { SortKey } from '../filter/sort-rows';

/** Where a move goes in the pods. */
export type Move = 'down' | 'up' | 'first' | 'last';
export type CommandArg = SortKey | Move | number;

/** What a key (or the : palette) asks for; the component that can do it registers a handler (use-shortcuts.ts). */
export type Command =
  | 'filter'
  | 'findNode'
  | 'help'
  | 'palette'
  | 'escape'
  | 'move'
  | 'sort'
  | 'tab'
  | 'comparePod'
  | 'compareSources'
  | 'record'
  | 'export'
  | 'fields'
  | 'columns'
  | 'logs'
  | 'nodeInfo'
  | 'settings';

export interface KeyBinding {
  /** KeyboardEvent.key values; an upper-case letter is Shift+letter. */
  keys: readonly string[];
  /** What the help says the keys do. */
  help: string;
  /** Handled page-wide through this command; without one, the focused widget handles the keys itself (listed for help). */
  command?: Command;
  /** One argument per key, for families (the moves, the sort letters, the tab digits). */
  args?: readonly CommandArg[];
  /** Keys the focused widget handles itself for the same action: listed by the help, not handled page-wide. */
  widgetKeys?: readonly string[];
  /** Fires from a text field too (Esc); every other key is text there. */
  whileTyping?: boolean;
  /** Offered in the : palette under this name (when something can run it right now). */
  title?: string;
}

/** The sort letters, k9s's Shift+letter for our columns; the same letter again reverses. */
const SORTS: [key: string, sort: SortKey, column: string][] = [
  ['N', 'name', 'name'],
  ['P', 'namespace', 'namespace'],
  ['S', 'status', 'status'],
  ['R', 'ready', 'ready'],
  ['T', 'restarts', 'restarts'],
  ['A', 'age', 'age'],
  ['C', 'cpu', 'CPU'],
  ['M', 'memory', 'memory'],
  ['I', 'podIP', 'IP'],
  ['O', 'node', 'node'],
];

/** The pod detail's views, in the order of its tabs: 1 is the first. */
export const TAB_TITLES = ['Summary', 'JSON', 'YAML', 'Unknown fields', 'Resources', 'Logs', 'History'] as const;

/** Every key of the app, in the order the help lists them: the handlers and the help both read this table. */
export const KEY_BINDINGS: readonly KeyBinding[] = [
  { keys: ['/'], help: 'Filter pods', command: 'filter', title: 'Filter pods' },
  { keys: ['f'], help: 'Search the nodes in the sidebar by name (Enter: open the first found)', command: 'findNode', title: 'Find a node' },
  { keys: [':'], help: 'Command palette: go to a node, a group, a view, or run a command', command: 'palette' },
  { keys: ['?'], help: 'This help', command: 'help', title: 'Help: keys and filter terms' },
  { keys: ['j', 'k'], widgetKeys: ['ArrowDown', 'ArrowUp'], help: 'Select the next or previous pod; an open pod follows', command: 'move', args: ['down', 'up'] },
  { keys: ['g', 'G'], widgetKeys: ['Home', 'End'], help: 'Select the first or the last pod', command: 'move', args: ['first', 'last'] },
  { keys: [], widgetKeys: ['PageUp', 'PageDown'], help: 'In the pods: a page up or down' },
  { keys: [], widgetKeys: ['Enter'], help: 'Open the selected pod (from the filter: go to the pods)' },
  ...SORTS.map(([key, sort, column]): KeyBinding => ({ keys: [key], help: `Sort by ${column} (again: reverse)`, command: 'sort', args: [sort] })),
  { keys: TAB_TITLES.map((_, i) => String(i + 1)), help: `On an open pod: its views (${TAB_TITLES.join(', ')})`, command: 'tab', args: TAB_TITLES.map((_, i) => i) },
  { keys: [], widgetKeys: ['ArrowLeft', 'ArrowRight', 'Home', 'End'], help: 'On the pod’s tabs: the previous, next, first or last view' },
  { keys: ['c'], help: 'Compare the open pod with another pod of any open source', command: 'comparePod', title: 'Compare the open pod with…' },
  { keys: ['l'], help: 'The Logs of the open or selected pod (in Find in log: Enter, Shift+Enter for the next, previous match)', command: 'logs', title: 'Logs of the pod' },
  { keys: ['i'], help: "The node's info: its kubelet, configuration, feature gates, runtime, journal and containers", command: 'nodeInfo', title: 'Node info' },
  { keys: ['e'], help: 'Export the pods shown', command: 'export', title: 'Export pods…' },
  { keys: ['r'], help: 'Record the node to a file, or stop recording', command: 'record', title: 'Record / stop recording' },
  { keys: ['m'], help: 'Choose the fields of the field mask (mask builder)', command: 'fields', title: 'Fields: mask builder…' },
  { keys: ['v'], help: 'Columns: show, hide, reorder, add a column of any pod field; save the filter, sort and columns as a view', command: 'columns', title: 'Columns and saved views…' },
  { keys: [], help: 'Compare two sources', command: 'compareSources', title: 'Compare sources…' },
  { keys: [','], help: 'Settings: the memory budget', command: 'settings', title: 'Settings…' },
  { keys: [], widgetKeys: ['Enter', 'Shift+Enter'], help: 'In Find in JSON: the next or previous match' },
  { keys: [], widgetKeys: ['n', 'p'], help: 'In a diff: the next or previous change' },
  { keys: [], widgetKeys: ['ArrowUp', 'ArrowDown'], help: 'In a comparison of sources or the palette: the next or previous entry (Enter opens it)' },
  { keys: ['Escape'], help: 'Clear the filter, close the open pod, or close a dialog', command: 'escape', whileTyping: true },
];

const LABELS: Record<string, string> = { ArrowUp: '↑', ArrowDown: '↓', ArrowLeft: '←', ArrowRight: '→', Escape: 'Esc', PageUp: 'PgUp', PageDown: 'PgDn' };

/** A key as the help shows it: arrows as arrows, an upper-case letter as Shift+letter. */
export function keyLabel(key: string): string {
  return LABELS[key] ?? (/^[A-Z]$/.test(key) ? `Shift+${key}` : key);
}

export interface KeyPress {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
}

/** The page-wide command a key press asks for, with its argument; null when the key is not one (or is text being typed). */
export function commandOfKey(press: KeyPress, typing: boolean): { command: Command; arg?: CommandArg } | null {
  // Ctrl/Cmd/Alt combinations are the browser's and the system's.
  if (press.ctrlKey || press.metaKey || press.altKey) return null;
  for (const b of KEY_BINDINGS) {
    if (!b.command || (typing && !b.whileTyping)) continue;
    const i = b.keys.indexOf(press.key);
    if (i >= 0) return b.args ? { command: b.command, arg: b.args[i] } : { command: b.command };
  }
  return null;
}

/** Whether keys go to a text field (or a list the user is typing in) rather than being shortcuts. */
export function isTyping(target: EventTarget | null): boolean {
  return typeof HTMLElement !== 'undefined' && target instanceof HTMLElement && (target.matches('input, textarea, select') || target.isContentEditable);
}
