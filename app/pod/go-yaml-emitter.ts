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
import { analyzeScalar, codePoints, escape, isBreak, isPrintable, isSimple, SIMPLE_ANALYSIS, utf8Length, type Analysis, type ProblemKind } from './go-yaml-scalar-analysis';
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
  kind: ProblemKind;
  codePoint: number;
}

/** A string go-yaml writes as it is, unquoted (most strings in a pod). */
const isPlain = (s: string): boolean => isSimple(s) && resolvesAsString(s) && !isBase60Float(s);

/** A key go-yaml writes as it is, unquoted, before its `:` (most keys). */
export function isPlainKey(k: string): boolean {
  return k.length <= 128 && isPlain(k);
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
    const analysis = simple ? SIMPLE_ANALYSIS : analyzeScalar(s, this.note);
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

  /** A character of the string at `path` that kubectl could not carry (see StringProblem). */
  private readonly note = (kind: ProblemKind, codePoint: number): void => {
    this.problems.push({ path: this.pathText(), kind, codePoint });
  };

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
