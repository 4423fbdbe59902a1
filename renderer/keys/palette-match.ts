/** One thing the : palette offers: a node, a group, a view or a command. */
export interface PaletteItem {
  kind: 'Node' | 'Group' | 'View' | 'Saved view' | 'Command';
  label: string;
  run: () => void;
}

/**
 * How well a typed word fits a text, lower is better; null when it does not. A start of the text beats
 * the start of a word in it, then anywhere in it, then its letters in order ("wk1" for worker-1).
 */
function wordScore(word: string, text: string): number | null {
  if (text.startsWith(word)) return 0;
  if (new RegExp(`(^|[^a-z0-9])${word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`).test(text)) return 1;
  if (text.includes(word)) return 2;
  let at = 0;
  for (const ch of word) {
    at = text.indexOf(ch, at) + 1;
    if (at === 0) return null;
  }
  return 3;
}

/**
 * The items the typed query picks, best first, ties in their given order: every word of the query must
 * fit the label (or "kind label", so "group prod" narrows to groups). An empty query keeps them all.
 */
export function matchPalette<T extends Pick<PaletteItem, 'kind' | 'label'>>(query: string, items: readonly T[]): T[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  const scored: { item: T; score: number; index: number }[] = [];
  items.forEach((item, index) => {
    const label = item.label.toLowerCase();
    const full = `${item.kind.toLowerCase()} ${label}`;
    let score = 0;
    for (const word of words) {
      const s = wordScore(word, label) ?? (full.startsWith(word) ? 1 : null);
      if (s === null) return;
      score += s;
    }
    scored.push({ item, score, index });
  });
  return scored.sort((a, b) => a.score - b.score || a.index - b.index).map((s) => s.item);
}
