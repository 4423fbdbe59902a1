import type { NodeInfo } from '../../app/contract/nodes';
import { TAB_TITLES, KEY_BINDINGS, keyLabel } from '../keys/key-bindings';
import type { PaletteItem } from '../keys/palette-match';
import { availableCommands, runCommand } from '../keys/use-shortcuts';
import { groupOf } from '../state/sidebar-rows';

/** What the : palette offers now: every node, every named group, the open pod's views, the saved views, the commands that can run. */
export function paletteItems(nodes: readonly NodeInfo[], go: { node: (id: string) => void; group: (ids: string[]) => void }, savedViews: readonly PaletteItem[] = []): PaletteItem[] {
  const groups = new Map<string, string[]>();
  for (const n of nodes) {
    const g = groupOf(n);
    if (g) groups.get(g)?.push(n.id) ?? groups.set(g, [n.id]);
  }
  const can = availableCommands();
  return [
    ...nodes.map((n): PaletteItem => ({ kind: 'Node', label: n.label, run: () => go.node(n.id) })),
    ...[...groups].map(([g, ids]): PaletteItem => ({ kind: 'Group', label: `${g} (${ids.length})`, run: () => go.group(ids) })),
    ...savedViews,
    ...(can.has('tab') ? TAB_TITLES.map((t, i): PaletteItem => ({ kind: 'View', label: `${t}  ${i + 1}`, run: () => runCommand('tab', i) })) : []),
    ...KEY_BINDINGS.filter((b) => b.title && b.command && can.has(b.command)).map(
      (b): PaletteItem => ({ kind: 'Command', label: b.keys[0] ? `${b.title}  ${keyLabel(b.keys[0])}` : b.title!, run: () => runCommand(b.command!) }),
    ),
  ];
}
