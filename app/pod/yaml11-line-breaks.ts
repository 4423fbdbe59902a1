/**
 * U+2028 and U+2029 in YAML as go-yaml (YAML 1.1) reads them: as line breaks, which it keeps in the value
 * where a newline would fold. kubectl writes them raw inside 'single quotes' and `|` literals, each followed by
 * the indentation a newline would be, and reads its own YAML back unchanged. The `yaml` library follows
 * YAML 1.2, where they are ordinary characters, so the reader (kubectl-yaml-reader.ts) hands it the text with
 * them as newlines (the structure go-yaml sees; offsets unchanged, both are one UTF-16 unit) and takes the
 * value of each scalar that held one from its source here. Browser-safe.
 */
import { Scalar } from 'yaml';

const SEPARATORS = /[\u2028\u2029]/;
/** A run of them, and whether a quote follows it. */
const SEPARATOR_RUNS = /[\u2028\u2029]+(?=(['"])?)/g;

/**
 * The text with U+2028/U+2029 as newlines, for the YAML 1.2 parser: the same offsets, go-yaml's lines. go-yaml
 * writes the indentation after one, except before the quote that closes a quoted value; that quote at the start
 * of a line would end the value early for the YAML 1.2 parser, so a run of them before a quote becomes spaces
 * (the value is taken from the source anyway).
 */
export function withSeparatorsAsNewlines(text: string): string {
  return SEPARATORS.test(text) ? text.replace(SEPARATOR_RUNS, (run, quote) => (quote ? ' ' : '\n').repeat(run.length)) : text;
}

const isBlank = (c: string | undefined) => c === ' ' || c === '\t';
const isBreak = (c: string | undefined) => c === '\n' || c === '\r' || c === '\u2028' || c === '\u2029' || c === '\u0085';

/** go-yaml's read_line: the break at `i` as it goes into a value (CR LF, CR and NEL as a newline), and where the next line starts. */
function readBreak(s: string, i: number): [string, number] {
  const c = s[i]!;
  if (c === '\r' && s[i + 1] === '\n') return ['\n', i + 2];
  return [c === '\u2028' || c === '\u2029' ? c : '\n', i + 1];
}

const ESCAPE: Record<string, string> = { '\n': '\\n', '\u2028': '\\L', '\u2029': '\\P' };

/**
 * A flow scalar's content between its quotes with go-yaml's folding (scan_flow_scalar): blanks before a break
 * and indentation after it are dropped; a newline followed by no other break is a space, else the breaks after
 * it stay; a U+2028/U+2029 stays with the breaks after it. Single-quoted content comes back as its value;
 * double-quoted as one line of double-quoted text (breaks as escapes, escapes left as they are) to unescape.
 */
function foldFlow(content: string, double: boolean): string {
  let out = '';
  let i = 0;
  while (i < content.length) {
    const c = content[i]!;
    const escapedBreak = double && c === '\\' && isBreak(content[i + 1]);
    if (isBlank(c) || isBreak(c) || escapedBreak) {
      let whitespace = '';
      let leading: string | undefined;
      let trailing = '';
      // A backslash before a break joins the lines: no space, only the breaks after it.
      if (escapedBreak) [leading, i] = ['', readBreak(content, i + 1)[1]];
      while (i < content.length && (isBlank(content[i]) || isBreak(content[i]))) {
        if (isBlank(content[i])) {
          if (leading === undefined) whitespace += content[i];
          i++;
          continue;
        }
        const [b, next] = readBreak(content, i);
        i = next;
        if (leading === undefined) leading = b;
        else trailing += b;
      }
      const text = leading === undefined ? whitespace : leading === '\n' ? trailing || ' ' : leading + trailing;
      out += double ? text.replace(/[\n\u2028\u2029]/g, (b) => ESCAPE[b]!) : text;
    } else if (double && c === '\\') {
      out += content.slice(i, i + 2);
      i += 2;
    } else {
      out += c;
      // '' is a quote in single-quoted text (a lone ' ends it, so none is inside).
      i += !double && c === "'" ? 2 : 1;
    }
  }
  return out;
}

/**
 * A block literal's value: the parser's, which has a newline for every line break kept, with each one
 * replaced by the break that is there in the source (the literal keeps its breaks in order; chomping only
 * drops trailing ones).
 */
function literalValue(parsed: string, source: string): string {
  const header = source.search(/[\n\r\u2028\u2029]/);
  const breaks: string[] = [];
  for (let i = header < 0 ? source.length : readBreak(source, header)[1]; i < source.length; ) {
    if (isBreak(source[i])) {
      const [b, next] = readBreak(source, i);
      breaks.push(b);
      i = next;
    } else i++;
  }
  let k = 0;
  return parsed.replace(/\n/g, () => breaks[k++] ?? '\n');
}

/**
 * The value go-yaml reads from a scalar whose source holds U+2028/U+2029, given the scalar as parsed from
 * withSeparatorsAsNewlines(source) and `unescape`, which reads one line of double-quoted YAML. Undefined for
 * the styles kubectl never writes them in (plain, `>` folded), whose folding this does not reproduce.
 */
export function separatorScalarValue(node: Scalar, source: string, unescape: (doubleQuoted: string) => string): string | undefined {
  const [start, end] = node.range ?? [0, 0];
  const text = source.slice(start, end);
  if (!SEPARATORS.test(text)) return String(node.value);
  switch (node.type) {
    case Scalar.QUOTE_SINGLE:
      return foldFlow(text.slice(1, -1), false);
    case Scalar.QUOTE_DOUBLE:
      return unescape(`"${foldFlow(text.slice(1, -1), true)}"`);
    case Scalar.BLOCK_LITERAL:
      return literalValue(String(node.value), text);
    default:
      return undefined;
  }
}
