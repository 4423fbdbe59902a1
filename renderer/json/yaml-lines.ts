import type { JsonLine } from './json-lines';

const NUMBER = /^-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?$/;
const LITERAL = /^(?:true|false|null)$/;
/** A key as go-yaml writes one: double-quoted, single-quoted or plain (a plain key never holds `: `). */
const KEY = /^("(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|[^\s'"#-][^:]*?|-[^\s:][^:]*?)(:)(?= |$)/;
const BLOCK_SCALAR = /^[|>][-+0-9]*$/;

interface Shape {
  /** A later line more indented than this column belongs under this line (for a sequence item: its dash). */
  fold: number;
  /** The column of the line's key, or -1. */
  key: number;
  /** A later line more indented than this column continues this line's scalar value. */
  text: number;
  /** Ends with `key:` and nothing after it: its value (a mapping or a sequence) is on the next lines. */
  opensCollection: boolean;
}

/** Tokens of one line of a mapping or sequence, and what the line opens. */
function structuralLine(raw: string, tokens: JsonLine['tokens']): Shape {
  let at = raw.length - raw.trimStart().length;
  if (at > 0) tokens.push({ kind: 'space', text: raw.slice(0, at) });
  const fold = at;
  let text = at;
  while (raw.startsWith('- ', at)) {
    text = at;
    tokens.push({ kind: 'punct', text: '-' }, { kind: 'space', text: ' ' });
    at += 2;
  }
  let rest = raw.slice(at);
  const match = KEY.exec(rest);
  const key = match ? at : -1;
  if (match) {
    text = at;
    tokens.push({ kind: 'key', text: match[1]! }, { kind: 'punct', text: ':' });
    rest = rest.slice(match[0].length);
    if (rest.startsWith(' ')) {
      tokens.push({ kind: 'space', text: ' ' });
      rest = rest.slice(1);
    }
  }
  if (rest !== '') {
    const kind = NUMBER.test(rest) ? 'number' : LITERAL.test(rest) ? 'literal' : BLOCK_SCALAR.test(rest) || rest === '{}' || rest === '[]' ? 'punct' : 'string';
    tokens.push({ kind, text: rest });
  }
  return { fold, key, text, opensCollection: match !== null && rest === '' };
}

/**
 * Splits YAML as kubectl prints it (go-yaml v2's block style) into highlighted lines with the same shape
 * as jsonLines, and finds for each line that has more under it (a mapping or sequence, a `|` literal, a
 * long value folded over several lines) the last line of that, for folding.
 */
export function yamlLines(text: string): JsonLine[] {
  const raws = text.replace(/\n$/, '').split('\n');
  const lines: JsonLine[] = [];
  const shapes: (Shape | undefined)[] = [];
  /** The owner column of the scalar being continued (block text or a folded value), or -1. */
  let textOwner = -1;
  const indentOf = (raw: string) => raw.length - raw.trimStart().length;
  for (const raw of raws) {
    const tokens: JsonLine['tokens'] = [];
    if (textOwner >= 0 && (raw.trim() === '' || indentOf(raw) > textOwner)) {
      const indent = indentOf(raw);
      if (indent > 0) tokens.push({ kind: 'space', text: raw.slice(0, indent) });
      if (indent < raw.length) tokens.push({ kind: 'string', text: raw.slice(indent) });
      lines.push({ tokens, depth: 0 });
      shapes.push(undefined);
      continue;
    }
    const shape = structuralLine(raw, tokens);
    // After a scalar value (a `|` block or a long value go-yaml folded), more indented lines continue it.
    textOwner = shape.opensCollection ? -1 : shape.text;
    lines.push({ tokens, depth: 0 });
    shapes.push(shape);
  }
  // Folds: a line's block is every later line more indented than its fold column, blank lines within it,
  // and, after `key:`, the sequence items go-yaml writes at the key's own indentation.
  const ends: number[] = [];
  for (let i = 0; i < lines.length; i++) {
    while (ends.length > 0 && ends[ends.length - 1]! < i) ends.pop();
    lines[i]!.depth = ends.length;
    const shape = shapes[i];
    if (!shape) continue;
    let end = i;
    for (let j = i + 1; j < raws.length; j++) {
      const raw = raws[j]!;
      if (raw.trim() === '') continue;
      const indent = indentOf(raw);
      const item = shape.opensCollection && indent === shape.key && raw.startsWith('- ', indent);
      if (indent > shape.fold || item) end = j;
      else break;
    }
    if (end > i) {
      lines[i]!.foldEnd = end;
      ends.push(end);
    }
  }
  return lines;
}
