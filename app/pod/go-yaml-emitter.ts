/**
 * go-yaml v2's Marshal of JSON values, byte for byte (encode.go + emitterc.go as kubectl runs them): block
 * mappings with keys in go-yaml's order, sequences with `- ` at the parent key's indentation, `{}` and `[]`
 * for empty ones, strings plain, 'single' or "double" quoted by go-yaml's analysis, `|` literals for
 * multi-line text, long lines folded at spaces past column 80, non-printable characters escaped.
 *
 * Written by hand rather than with a YAML library: no JavaScript library reproduces go-yaml's choices
 * (its key order, which strings it quotes and how, where it folds), and kubectl's bytes are the contract.
 * The port keeps the emitter's own state (column, indentation stack, whitespace and indention flags) so
 * that every rule is the C-derived code's, not an approximation of its output.
 *
 * Browser-safe: no node: imports.
 */
import { compareYamlKeys, isBase60Float, resolvesAsString } from './go-yaml-rules';
import { YamlNumber, type JsonObject, type JsonValue } from './json-value-parser';

const BEST_WIDTH = 80;
const BEST_INDENT = 2;

const enum Style {
  Plain,
  Single,
  Double,
  Literal,
}

/** A string's characters that kubectl cannot carry through its YAML (see KubectlYamlProblem). */
export interface StringProblem {
  path: string;
  /** 'refused': go-yaml's reader rejects the character (kubectl prints an error and no YAML);
   *  'altered': kubectl's YAML of the value does not read back the same (U+0085). */
  kind: 'refused' | 'altered';
  codePoint: number;
}

const isBreak = (c: number) => c === 10 || c === 13 || c === 0x85 || c === 0x2028 || c === 0x2029;
const isPrintable = (c: number) =>
  c === 10 || (c >= 0x20 && c <= 0x7e) || (c >= 0xa0 && c <= 0xd7ff) || (c >= 0xe000 && c <= 0xfffd && c !== 0xfeff);
const isBlankz = (c: number) => c === 32 || c === 9 || c === 0 || isBreak(c);
/**
 * The line separator kubectl's YAML does not keep: a raw U+0085 (NEL) in its JSON is folded to a space when
 * go-yaml reads that JSON. U+2028/U+2029 are kept: go-yaml writes them raw and reads them back as they were.
 */
const NEL = 0x85;
/** Characters go-yaml's reader refuses in its input ("control characters are not allowed"). */
const isRefused = (c: number) => c === 0x7f || (c >= 0x80 && c <= 0x9f && c !== 0x85) || c === 0xfffe || c === 0xffff || (c >= 0xd800 && c <= 0xdfff);

const utf8Length = (s: string): number => {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
};

/** Code points in `s` (a surrogate pair is one character to the emitter's column count). */
function codePoints(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) n--;
  }
  return n;
}

/** A string go-yaml writes as it is, unquoted (most strings in a pod). */
const isPlain = (s: string): boolean => isSimple(s) && resolvesAsString(s) && !isBase60Float(s);

/** A key go-yaml writes as it is, unquoted, before its `:` (most keys). */
export function isPlainKey(k: string): boolean {
  return k.length <= 128 && isPlain(k);
}

interface Analysis {
  multiline: boolean;
  blockPlain: boolean;
  single: boolean;
  block: boolean;
}

const SIMPLE_ANALYSIS: Analysis = { multiline: false, blockPlain: true, single: true, block: true };

/** Characters that may not start a plain scalar (`?`, `:` and `-` only when a space or the end follows). */
const LEADING_INDICATOR = new Uint8Array(128);
for (const c of '#,[]{}&*!|>\'"%@`') LEADING_INDICATOR[c.charCodeAt(0)] = 1;

/**
 * What analyze() would find for most pod strings, in one cheap pass: printable ASCII, no leading or trailing
 * space, no indicator at the start, no `: ` or ` #` inside. Such a string may be plain and needs no escape.
 */
function isSimple(s: string): boolean {
  const n = s.length;
  if (n === 0) return false;
  const c0 = s.charCodeAt(0);
  if (c0 >= 128 || LEADING_INDICATOR[c0] === 1 || c0 === 32 || s.charCodeAt(n - 1) === 32) return false;
  if ((c0 === 63 || c0 === 58 || c0 === 45) && (n === 1 || s.charCodeAt(1) === 32)) return false;
  if (n >= 3 && (s.startsWith('---') || s.startsWith('...'))) return false;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c < 32 || c > 126) return false;
    if (c === 58 && (i + 1 === n || s.charCodeAt(i + 1) === 32)) return false;
    if (c === 35 && s.charCodeAt(i - 1) === 32) return false;
  }
  return true;
}

export class GoYamlEmitter {
  out = '';
  private column = 0;
  private indent = -1;
  private readonly indents: number[] = [];
  private whitespace = true;
  private indention = true;
  private readonly path: (string | number)[] = [];
  /** Where `path` starts in the text of a problem's path, e.g. `items[3]` for a List's item. */
  private pathRoot = '';
  readonly problems: StringProblem[] = [];

  /** One YAML document (go-yaml's Marshal): the value, then a final line break. */
  document(value: JsonValue): string {
    this.reset(-1);
    this.node(value, false, false);
    this.writeIndent();
    return this.out;
  }

  /**
   * One item of a block sequence at the top level's indentation, e.g. a pod under a List's `items:`,
   * ending with its line break, so a long list can be printed item by item.
   */
  sequenceItem(value: JsonValue, pathPrefix: string): string {
    this.reset(0);
    this.pathRoot = pathPrefix;
    this.writeIndicator('-', true, false, true);
    this.node(value, false, false);
    if (this.column > 0) this.putBreak();
    return this.out;
  }

  /**
   * One value written after a key or a dash that ends at `column`, in a block collection whose entries are
   * at `indent`: its text from the separating space (or line break) on, without the line break a `|`
   * literal ends with (the next entry's line break stands for it). For printers that lay out collections
   * themselves (kubectl-yaml-bytes.ts); they check `problems` after each call.
   */
  /**
   * valueText of most strings, without the emitter's work: printable ASCII with nothing to escape that goes
   * out plain or double-quoted on one line (it ends before the fold column, or has no space to fold at).
   * Undefined for the others.
   */
  quickString(value: string, column: number): string | undefined {
    if (value === '') return ' ""';
    if (!isSimple(value)) return undefined;
    const plain = resolvesAsString(value) && !isBase60Float(value);
    if (!plain && (value.includes('"') || value.includes('\\'))) return undefined;
    if (column + value.length + (plain ? 1 : 3) > BEST_WIDTH + 1 && value.includes(' ')) return undefined;
    return plain ? ` ${value}` : ` "${value}"`;
  }

  valueText(value: JsonValue, column: number, indent: number): string {
    this.reset(indent);
    this.column = column;
    this.whitespace = false;
    this.indention = false;
    this.node(value, true, false);
    const out = this.out;
    return out.charCodeAt(out.length - 1) === 10 ? out.slice(0, -1) : out;
  }

  /** One entry of a block mapping whose keys are at `indent`, from the key on; as valueText, for any key. */
  mapEntry(key: string, value: string, indent: number): string {
    this.reset(indent);
    this.column = indent;
    this.entry(key, value);
    const out = this.out;
    return out.charCodeAt(out.length - 1) === 10 ? out.slice(0, -1) : out;
  }

  private reset(indent: number): void {
    this.pathRoot = '';
    this.out = '';
    this.column = 0;
    this.indent = indent;
    this.indents.length = 0;
    this.whitespace = true;
    this.indention = true;
  }

  /**
   * A value and everything in it. Collections are held open on a stack rather than by recursion: FieldsV1
   * (managedFields) nests up to 9,996 levels, as deep as kubectl prints, far deeper than the call stack.
   * `mapping`: the value follows a mapping key (a sequence there is written at the key's indentation).
   */
  private node(root: JsonValue, mapping: boolean, simpleKey: boolean): void {
    const open: { items: JsonValue[] | JsonObject; keys: string[] | null; next: number }[] = [];
    let v = root;
    for (;;) {
      if (Array.isArray(v) && v.length > 0) {
        this.increaseIndent(false, mapping && !this.indention);
        open.push({ items: v, keys: null, next: 0 });
      } else if (v instanceof Map && v.size > 0) {
        this.increaseIndent(false, false);
        open.push({ items: v, keys: [...v.keys()].sort(compareYamlKeys), next: 0 });
      } else this.leaf(v, simpleKey);
      // On to the next entry, closing every collection that has none left.
      for (;;) {
        const top = open[open.length - 1];
        if (top === undefined) return;
        // The entry just written is done with.
        if (top.next > 0) this.path.pop();
        if (top.next === (top.keys ?? (top.items as JsonValue[])).length) {
          this.indent = this.indents.pop()!;
          open.pop();
          continue;
        }
        const i = top.next++;
        this.writeIndent();
        if (top.keys === null) {
          this.writeIndicator('-', true, false, true);
          this.path.push(i);
          v = (top.items as JsonValue[])[i]!;
          mapping = false;
        } else {
          const k = top.keys[i]!;
          this.key(k);
          v = (top.items as JsonObject).get(k)!;
          mapping = true;
        }
        simpleKey = false;
        break;
      }
    }
  }

  /** A scalar, or an empty collection (`{}`, `[]`). */
  private leaf(v: JsonValue, simpleKey: boolean): void {
    if (typeof v === 'string') return this.string(v, simpleKey);
    if (typeof v === 'number') return this.scalar(String(v), Style.Plain, SIMPLE_ANALYSIS, simpleKey);
    if (typeof v === 'boolean') return this.scalar(v ? 'true' : 'false', Style.Plain, SIMPLE_ANALYSIS, simpleKey);
    if (v === null) return this.scalar('null', Style.Plain, SIMPLE_ANALYSIS, simpleKey);
    if (v instanceof YamlNumber) return this.scalar(v.text, Style.Plain, SIMPLE_ANALYSIS, simpleKey);
    return Array.isArray(v) ? this.emptyFlow('[', ']') : this.emptyFlow('{', '}');
  }

  private emptyFlow(open: string, close: string): void {
    this.writeIndicator(open, true, true, false);
    this.writeIndicator(close, false, false, false);
  }

  /** One key and its value, from the key's column on. */
  private entry(k: string, v: JsonValue): void {
    this.key(k);
    this.node(v, true, false);
    this.path.pop();
  }

  /** A mapping key up to its `:`, its value's path entry pushed (the caller pops it once the value is written). */
  private key(k: string): void {
    this.path.push(k);
    if (isPlainKey(k)) {
      // What the general path below writes for a plain key, without its bookkeeping: most keys are plain.
      this.out += k;
      this.out += ':';
      this.column += k.length + 1;
      this.whitespace = false;
      this.indention = false;
    } else if (this.isSimpleKey(k)) {
      this.leaf(k, true);
      this.writeIndicator(':', false, false, false);
    } else {
      this.writeIndicator('?', true, false, true);
      this.leaf(k, false);
      this.writeIndent();
      this.writeIndicator(':', true, false, true);
    }
  }

  /** yaml_emitter_check_simple_key for a string key: one line, at most 128 bytes. */
  private isSimpleKey(k: string): boolean {
    if (k.length > 128) return false;
    for (let i = 0; i < k.length; i++) if (isBreak(k.charCodeAt(i))) return false;
    return utf8Length(k) <= 128;
  }

  /** encode.go stringv: literal for text with a newline, plain when it reads back as a string, else double-quoted. */
  private string(s: string, simpleKey: boolean): void {
    const simple = isSimple(s);
    const analysis = simple ? SIMPLE_ANALYSIS : this.analyze(s);
    const style = !simple && s.includes('\n') ? Style.Literal : s !== '' && resolvesAsString(s) && !isBase60Float(s) ? Style.Plain : Style.Double;
    this.scalar(s, style, analysis, simpleKey);
  }

  /** yaml_emitter_select_scalar_style, then the writer for the chosen style. */
  private scalar(value: string, requested: Style, a: Analysis, simpleKey: boolean): void {
    let style = requested;
    if (simpleKey && a.multiline) style = Style.Double;
    if (style === Style.Plain && (!a.blockPlain || (value === '' && simpleKey))) style = Style.Single;
    if (style === Style.Single && !a.single) style = Style.Double;
    if (style === Style.Literal && (!a.block || simpleKey)) style = Style.Double;
    this.increaseIndent(true, false);
    const allowBreaks = !simpleKey;
    if (style === Style.Plain) this.writePlain(value, allowBreaks);
    else if (style === Style.Single) this.writeSingle(value, allowBreaks);
    else if (style === Style.Double) this.writeDouble(value, allowBreaks);
    else this.writeLiteral(value);
    this.indent = this.indents.pop()!;
  }

  /** yaml_emitter_analyze_scalar (unicode output, block context), noting what kubectl cannot read. */
  private analyze(value: string): Analysis {
    if (value === '') return { multiline: false, blockPlain: true, single: true, block: false };
    let blockIndicators = value.startsWith('---') || value.startsWith('...');
    let lineBreaks = false;
    let special = false;
    let leadingSpace = false;
    let leadingBreak = false;
    let trailingSpace = false;
    let trailingBreak = false;
    let breakSpace = false;
    let spaceBreak = false;
    let precededByWhitespace = true;
    let previousSpace = false;
    let previousBreak = false;
    for (let i = 0; i < value.length; ) {
      const c = value.codePointAt(i)!;
      if (c > 32 && c < 127 && c !== 58 && c !== 35 && i > 0) {
        // Most characters: printable ASCII past the first that is no space, `:` or `#` changes nothing below but these.
        previousSpace = false;
        previousBreak = false;
        precededByWhitespace = false;
        i++;
        continue;
      }
      const next = i + (c > 0xffff ? 2 : 1);
      const n = value.charCodeAt(next);
      const followedByWhitespace = next >= value.length || n === 32 || n === 9;
      if (i === 0) {
        switch (c) {
          case 35: case 44: case 91: case 93: case 123: case 125: case 38: case 42: case 33: case 124: case 62: case 39: case 34: case 37: case 64: case 96:
            blockIndicators = true;
            break;
          case 63: case 58: case 45:
            if (followedByWhitespace) blockIndicators = true;
            break;
        }
      } else if ((c === 58 && followedByWhitespace) || (c === 35 && precededByWhitespace)) {
        blockIndicators = true;
      }
      if (!isPrintable(c)) special = true;
      if (isRefused(c)) this.problems.push({ path: this.pathText(), kind: 'refused', codePoint: c });
      // Not printable, so escaped here (\N) and the value reads back; kubectl's YAML would print a space.
      else if (c === NEL) this.problems.push({ path: this.pathText(), kind: 'altered', codePoint: c });
      if (c === 32) {
        if (i === 0) leadingSpace = true;
        if (next === value.length) trailingSpace = true;
        if (previousBreak) breakSpace = true;
        previousSpace = true;
        previousBreak = false;
      } else if (isBreak(c)) {
        lineBreaks = true;
        if (i === 0) leadingBreak = true;
        if (next === value.length) trailingBreak = true;
        if (previousSpace) spaceBreak = true;
        previousSpace = false;
        previousBreak = true;
      } else {
        previousSpace = false;
        previousBreak = false;
      }
      precededByWhitespace = isBlankz(c);
      i = next;
    }
    const a: Analysis = { multiline: lineBreaks, blockPlain: true, single: true, block: true };
    if (leadingSpace || leadingBreak || trailingSpace || trailingBreak) a.blockPlain = false;
    if (trailingSpace) a.block = false;
    if (breakSpace) a.blockPlain = a.single = false;
    if (spaceBreak || special) a.blockPlain = a.single = a.block = false;
    if (lineBreaks || blockIndicators) a.blockPlain = false;
    return a;
  }

  private pathText(): string {
    let p = this.pathRoot;
    for (const part of this.path) p += typeof part === 'number' ? `[${part}]` : /^[A-Za-z_][A-Za-z0-9_-]*$/.test(part) ? `${p === '' ? '' : '.'}${part}` : `[${JSON.stringify(part)}]`;
    return p;
  }

  // ---- the emitter's primitives (emitterc.go) ----

  private increaseIndent(flow: boolean, indentless: boolean): void {
    this.indents.push(this.indent);
    if (this.indent < 0) this.indent = flow ? BEST_INDENT : 0;
    else if (!indentless) this.indent += BEST_INDENT;
  }

  private putBreak(): void {
    this.out += '\n';
    this.column = 0;
    this.indention = true;
  }

  private writeIndent(): void {
    const indent = this.indent < 0 ? 0 : this.indent;
    if (!this.indention || this.column > indent || (this.column === indent && !this.whitespace)) this.putBreak();
    if (this.column < indent) {
      this.out += ' '.repeat(indent - this.column);
      this.column = indent;
    }
    this.whitespace = true;
    this.indention = true;
  }

  private writeIndicator(indicator: string, needWhitespace: boolean, isWhitespace: boolean, isIndention: boolean): void {
    if (needWhitespace && !this.whitespace) {
      this.out += ' ';
      this.column++;
    }
    this.out += indicator;
    this.column += indicator.length;
    this.whitespace = isWhitespace;
    this.indention = this.indention && isIndention;
  }

  /** A line break character from the value: a newline, or LS/PS written as they are. */
  private writeBreak(c: number): void {
    if (c === 10) this.putBreak();
    else {
      this.out += String.fromCodePoint(c);
      this.column = 0;
      this.indention = true;
    }
  }

  private writePlain(value: string, allowBreaks: boolean): void {
    if (!this.whitespace) {
      this.out += ' ';
      this.column++;
    }
    if (!allowBreaks || this.column + value.length <= BEST_WIDTH + 1) {
      // Cannot pass the fold column before its last space: the value goes out whole.
      this.out += value;
      this.column += value.length;
    } else {
      let spaces = false;
      let from = 0;
      for (let i = 0; i < value.length; i++) {
        if (value.charCodeAt(i) === 32) {
          if (!spaces && this.column > BEST_WIDTH && value.charCodeAt(i + 1) !== 32) {
            this.out += value.slice(from, i);
            from = i + 1;
            this.writeIndent();
          } else this.column++;
          spaces = true;
        } else {
          this.column++;
          spaces = false;
        }
      }
      this.out += value.slice(from);
    }
    this.whitespace = false;
    this.indention = false;
  }

  // writeSingle and writeDouble keep a run of ordinary characters pending (from `from`) and write it in one
  // piece before anything else goes out: appending character by character is most of their time.

  /** Writes value[from, to) and returns -1, the mark of no pending run. */
  private flush(value: string, from: number, to: number): number {
    this.out += value.slice(from, to);
    return -1;
  }

  private writeSingle(value: string, allowBreaks: boolean): void {
    this.writeIndicator("'", true, false, false);
    let spaces = false;
    let breaks = false;
    let from = -1;
    for (let i = 0; i < value.length; ) {
      const c = value.codePointAt(i)!;
      const next = i + (c > 0xffff ? 2 : 1);
      if (c === 32) {
        if (from >= 0) from = this.flush(value, from, i);
        if (allowBreaks && !spaces && this.column > BEST_WIDTH && i > 0 && next < value.length && value.charCodeAt(next) !== 32) {
          this.writeIndent();
        } else {
          this.out += ' ';
          this.column++;
        }
        spaces = true;
      } else if (isBreak(c)) {
        if (from >= 0) from = this.flush(value, from, i);
        if (!breaks && c === 10) this.putBreak();
        this.writeBreak(c);
        this.indention = true;
        breaks = true;
      } else {
        if (breaks) this.writeIndent();
        if (c === 39) {
          if (from >= 0) from = this.flush(value, from, i);
          this.out += "''";
          this.column += 2;
        } else {
          if (from < 0) from = i;
          this.column++;
        }
        this.indention = false;
        spaces = false;
        breaks = false;
      }
      i = next;
    }
    if (from >= 0) this.flush(value, from, value.length);
    this.writeIndicator("'", false, false, false);
    this.whitespace = false;
    this.indention = false;
  }

  private writeDouble(value: string, allowBreaks: boolean): void {
    this.writeIndicator('"', true, false, false);
    let spaces = false;
    let from = -1;
    for (let i = 0; i < value.length; ) {
      const c = value.codePointAt(i)!;
      const next = i + (c > 0xffff ? 2 : 1);
      if (!isPrintable(c) || isBreak(c) || c === 34 || c === 92) {
        if (from >= 0) from = this.flush(value, from, i);
        const e = escape(c);
        this.out += e;
        this.column += e.length;
        spaces = false;
      } else if (c === 32) {
        if (from >= 0) from = this.flush(value, from, i);
        if (allowBreaks && !spaces && this.column > BEST_WIDTH && i > 0 && next < value.length) {
          this.writeIndent();
          if (value.charCodeAt(next) === 32) {
            this.out += '\\';
            this.column++;
          }
        } else {
          this.out += ' ';
          this.column++;
        }
        spaces = true;
      } else {
        if (from < 0) from = i;
        this.column++;
        spaces = false;
      }
      i = next;
    }
    if (from >= 0) this.flush(value, from, value.length);
    this.writeIndicator('"', false, false, false);
    this.whitespace = false;
    this.indention = false;
  }

  private writeLiteral(value: string): void {
    this.writeIndicator('|', true, false, false);
    const first = value.codePointAt(0);
    if (first === 32 || (first !== undefined && isBreak(first))) this.writeIndicator(String(BEST_INDENT), false, false, false);
    // Line breaks are single code units, so the last two characters decide the chomping indicator.
    const n = value.length;
    let chomp = '';
    if (n === 0 || !isBreak(value.charCodeAt(n - 1))) chomp = '-';
    else if (n === 1 || isBreak(value.charCodeAt(n - 2))) chomp = '+';
    if (chomp) this.writeIndicator(chomp, false, false, false);
    this.putBreak();
    this.indention = true;
    this.whitespace = true;
    let breaks = true;
    // Each line goes out whole: only breaks and the indentation after them change the emitter's state.
    let i = 0;
    while (i < n) {
      const c = value.charCodeAt(i);
      if (isBreak(c)) {
        this.writeBreak(c);
        this.indention = true;
        breaks = true;
        i++;
        continue;
      }
      if (breaks) this.writeIndent();
      let j = i + 1;
      while (j < n && !isBreak(value.charCodeAt(j))) j++;
      const line = value.slice(i, j);
      this.out += line;
      // Only the last line's width matters: a line break sets the column to 0.
      if (j === n) this.column += codePoints(line);
      this.indention = false;
      breaks = false;
      i = j;
    }
  }
}

const HEX = '0123456789ABCDEF';
const NAMED: Record<number, string> = { 0: '0', 7: 'a', 8: 'b', 9: 't', 10: 'n', 11: 'v', 12: 'f', 13: 'r', 27: 'e', 34: '"', 92: '\\', 0x85: 'N', 0xa0: '_', 0x2028: 'L', 0x2029: 'P' };

/** go-yaml's escape in a double-quoted scalar: a name, else \xXX, \uXXXX or \UXXXXXXXX in upper-case hex. */
function escape(c: number): string {
  const named = NAMED[c];
  if (named !== undefined) return `\\${named}`;
  const [letter, width] = c <= 0xff ? ['x', 2] : c <= 0xffff ? ['u', 4] : ['U', 8];
  let hex = '';
  for (let k = (width - 1) * 4; k >= 0; k -= 4) hex += HEX[(c >> k) & 15];
  return `\\${letter}${hex}`;
}
