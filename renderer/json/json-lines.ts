/** One line of pretty-printed JSON, split into tokens for highlighting, with its fold range. */
export interface JsonLine {
  tokens: { kind: 'key' | 'string' | 'number' | 'literal' | 'punct' | 'space'; text: string }[];
  /** For a line that opens { or [: the index of the line that closes it. */
  foldEnd?: number;
  depth: number;
}

const TOKEN = /("(?:[^"\\]|\\.)*")(\s*:)?|(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)|(true|false|null)|([{}[\],:])|(\s+)/g;

/**
 * Splits JSON text as kubectl prints it (one value per line) into highlighted lines and finds the
 * matching close for every line that opens an object or array, for folding.
 */
export function jsonLines(text: string): JsonLine[] {
  const lines: JsonLine[] = [];
  const open: number[] = [];
  for (const raw of text.replace(/\n$/, '').split('\n')) {
    const tokens: JsonLine['tokens'] = [];
    for (const m of raw.matchAll(TOKEN)) {
      if (m[1] !== undefined) {
        tokens.push({ kind: m[2] ? 'key' : 'string', text: m[1] });
        if (m[2]) tokens.push({ kind: 'punct', text: m[2] });
      } else if (m[3] !== undefined) tokens.push({ kind: 'number', text: m[3] });
      else if (m[4] !== undefined) tokens.push({ kind: 'literal', text: m[4] });
      else if (m[5] !== undefined) tokens.push({ kind: 'punct', text: m[5] });
      else tokens.push({ kind: 'space', text: m[0] });
    }
    const index = lines.length;
    const trimmed = raw.trim();
    const closes = /^[}\]]/.test(trimmed);
    if (closes) {
      const start = open.pop();
      if (start !== undefined && start !== index) lines[start]!.foldEnd = index;
    }
    lines.push({ tokens, depth: open.length });
    // Opens a block that does not close on the same line ({} and [] stay single lines).
    if (/[{[]$/.test(trimmed)) open.push(index);
  }
  return lines;
}
