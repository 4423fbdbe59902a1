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
   *  'altered': kubectl's YAML of the value does not read back the same (U+0085, U+2028, U+2029). */
  kind: 'refused' | 'altered';
  codePoint: number;
}

const isBreak = (c: number) => c === 10 || c === 13 || c === 0x85 || c === 0x2028 || c === 0x2029;
const isPrintable = (c: number) =>
  c === 10 || (c >= 0x20 && c <= 0x7e) || (c >= 0xa0 && c <= 0xd7ff) || (c >= 0xe000 && c <= 0xfffd && c !== 0xfeff);
const isBlankz = (c: number) => c === 32 || c === 9 || c === 0 || isBreak(c);
/**
 * Line separators kubectl's YAML does not keep: a raw U+0085 in its JSON is read as a line break, and
 * U+2028/U+2029 are written raw inside quotes or literals, where YAML 1.1 readers (go-yaml too) fold them.
 */
const isLineSeparator = (c: number) => c === 0x85 || c === 0x2028 || c === 0x2029;
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

interface Analysis {
  multiline: boolean;
  blockPlain: boolean;
  single: boolean;
  block: boolean;
}

/** Strings made only of these need no analysis: plain is allowed and nothing is escaped. */
const SIMPLE = /^[A-Za-z0-9_/=+()$^;~][A-Za-z0-9_./=+()$^;~ -]*(?<! )$/;
const SIMPLE_ANALYSIS: Analysis = { multiline: false, blockPlain: true, single: true, block: true };

export class GoYamlEmitter {
  out = '';
  private column = 0;
  private indent = -1;
  private readonly indents: number[] = [];
  private whitespace = true;
  private indention = true;
  private readonly path: (string | number)[] = [];
  readonly problems: StringProblem[] = [];

  /** One YAML document (go-yaml's Marshal): the value, then a final line break. */
  document(value: JsonValue): string {
    this.reset(-1);
    this.node(value, false, false, false);
    this.writeIndent();
    return this.out;
  }

  /**
   * One item of a block sequence at the top level's indentation, e.g. a pod under a List's `items:`,
   * ending with its line break, so a long list can be printed item by item.
   */
  sequenceItem(value: JsonValue, pathPrefix: string): string {
    this.reset(0);
    this.path.push(pathPrefix);
    this.writeIndicator('-', true, false, true);
    this.node(value, true, false, false);
    this.path.pop();
    if (this.column > 0) this.putBreak();
    return this.out;
  }

  private reset(indent: number): void {
    this.out = '';
    this.column = 0;
    this.indent = indent;
    this.indents.length = 0;
    this.whitespace = true;
    this.indention = true;
  }

  private node(v: JsonValue, sequence: boolean, mapping: boolean, simpleKey: boolean): void {
    if (typeof v === 'string') return this.string(v, simpleKey);
    if (typeof v === 'number') return this.scalar(String(v), Style.Plain, SIMPLE_ANALYSIS, simpleKey);
    if (typeof v === 'boolean') return this.scalar(v ? 'true' : 'false', Style.Plain, SIMPLE_ANALYSIS, simpleKey);
    if (v === null) return this.scalar('null', Style.Plain, SIMPLE_ANALYSIS, simpleKey);
    if (v instanceof YamlNumber) return this.scalar(v.text, Style.Plain, SIMPLE_ANALYSIS, simpleKey);
    if (Array.isArray(v)) return v.length === 0 ? this.emptyFlow('[', ']') : this.sequence(v, mapping);
    return v.size === 0 ? this.emptyFlow('{', '}') : this.mapping(v);
  }

  private emptyFlow(open: string, close: string): void {
    this.writeIndicator(open, true, true, false);
    this.writeIndicator(close, false, false, false);
  }

  private sequence(items: JsonValue[], mappingContext: boolean): void {
    this.increaseIndent(false, mappingContext && !this.indention);
    for (let i = 0; i < items.length; i++) {
      this.writeIndent();
      this.writeIndicator('-', true, false, true);
      this.path.push(i);
      this.node(items[i]!, true, false, false);
      this.path.pop();
    }
    this.indent = this.indents.pop()!;
  }

  private mapping(m: JsonObject): void {
    this.increaseIndent(false, false);
    const keys = [...m.keys()].sort(compareYamlKeys);
    for (const k of keys) {
      this.writeIndent();
      this.path.push(k);
      if (this.isSimpleKey(k)) {
        this.node(k, false, true, true);
        this.writeIndicator(':', false, false, false);
      } else {
        this.writeIndicator('?', true, false, true);
        this.node(k, false, true, false);
        this.writeIndent();
        this.writeIndicator(':', true, false, true);
      }
      this.node(m.get(k)!, false, true, false);
      this.path.pop();
    }
    this.indent = this.indents.pop()!;
  }

  /** yaml_emitter_check_simple_key for a string key: one line, at most 128 bytes. */
  private isSimpleKey(k: string): boolean {
    if (k.length > 128) return false;
    for (let i = 0; i < k.length; i++) if (isBreak(k.charCodeAt(i))) return false;
    return utf8Length(k) <= 128;
  }

  /** encode.go stringv: literal for text with a newline, plain when it reads back as a string, else double-quoted. */
  private string(s: string, simpleKey: boolean): void {
    const analysis = SIMPLE.test(s) ? SIMPLE_ANALYSIS : this.analyze(s);
    const style = s.includes('\n') ? Style.Literal : s !== '' && resolvesAsString(s) && !isBase60Float(s) ? Style.Plain : Style.Double;
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
      else if (isLineSeparator(c)) {
        // Escaped here (\N, \L, \P) so the value reads back; kubectl's YAML would not.
        special = true;
        this.problems.push({ path: this.pathText(), kind: 'altered', codePoint: c });
      }
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
    let p = '';
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

  private writeSingle(value: string, allowBreaks: boolean): void {
    this.writeIndicator("'", true, false, false);
    let spaces = false;
    let breaks = false;
    for (let i = 0; i < value.length; ) {
      const c = value.codePointAt(i)!;
      const next = i + (c > 0xffff ? 2 : 1);
      if (c === 32) {
        if (allowBreaks && !spaces && this.column > BEST_WIDTH && i > 0 && next < value.length && value.charCodeAt(next) !== 32) {
          this.writeIndent();
        } else {
          this.out += ' ';
          this.column++;
        }
        spaces = true;
      } else if (isBreak(c)) {
        if (!breaks && c === 10) this.putBreak();
        this.writeBreak(c);
        this.indention = true;
        breaks = true;
      } else {
        if (breaks) this.writeIndent();
        if (c === 39) this.out += "'";
        this.out += String.fromCodePoint(c);
        this.column += c === 39 ? 2 : 1;
        this.indention = false;
        spaces = false;
        breaks = false;
      }
      i = next;
    }
    this.writeIndicator("'", false, false, false);
    this.whitespace = false;
    this.indention = false;
  }

  private writeDouble(value: string, allowBreaks: boolean): void {
    this.writeIndicator('"', true, false, false);
    let spaces = false;
    for (let i = 0; i < value.length; ) {
      const c = value.codePointAt(i)!;
      const next = i + (c > 0xffff ? 2 : 1);
      if (!isPrintable(c) || isBreak(c) || c === 34 || c === 92) {
        const e = escape(c);
        this.out += e;
        this.column += e.length;
        spaces = false;
      } else if (c === 32) {
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
        this.out += String.fromCodePoint(c);
        this.column++;
        spaces = false;
      }
      i = next;
    }
    this.writeIndicator('"', false, false, false);
    this.whitespace = false;
    this.indention = false;
  }

  private writeLiteral(value: string): void {
    this.writeIndicator('|', true, false, false);
    const first = value.codePointAt(0);
    if (first === 32 || (first !== undefined && isBreak(first))) this.writeIndicator(String(BEST_INDENT), false, false, false);
    const chars = Array.from(value, (ch) => ch.codePointAt(0)!);
    const last = chars.length - 1;
    let chomp = '';
    if (chars.length === 0 || !isBreak(chars[last]!)) chomp = '-';
    else if (last === 0 || isBreak(chars[last - 1]!)) chomp = '+';
    if (chomp) this.writeIndicator(chomp, false, false, false);
    this.putBreak();
    this.indention = true;
    this.whitespace = true;
    let breaks = true;
    for (const c of chars) {
      if (isBreak(c)) {
        this.writeBreak(c);
        this.indention = true;
        breaks = true;
      } else {
        if (breaks) this.writeIndent();
        this.out += String.fromCodePoint(c);
        this.column++;
        this.indention = false;
        breaks = false;
      }
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
