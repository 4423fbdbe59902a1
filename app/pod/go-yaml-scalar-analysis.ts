/**
 * What go-yaml's emitter decides from a scalar's characters (emitterc.go): which are line breaks, printable,
 * refused by its reader; which styles can write a string (its analysis); how a double-quoted one escapes them.
 * The emitter (go-yaml-emitter.ts) writes with these. Browser-safe.
 */

/** 'refused': go-yaml's reader rejects the character (kubectl prints an error and no YAML);
 *  'altered': kubectl's YAML of the value does not read back the same (U+0085). */
export type ProblemKind = 'refused' | 'altered';

export const isBreak = (c: number) => c === 10 || c === 13 || c === 0x85 || c === 0x2028 || c === 0x2029;
export const isPrintable = (c: number) =>
  c === 10 || (c >= 0x20 && c <= 0x7e) || (c >= 0xa0 && c <= 0xd7ff) || (c >= 0xe000 && c <= 0xfffd && c !== 0xfeff);
const isBlankz = (c: number) => c === 32 || c === 9 || c === 0 || isBreak(c);
/**
 * The line separator kubectl's YAML does not keep: a raw U+0085 (NEL) in its JSON is folded to a space when
 * go-yaml reads that JSON. U+2028/U+2029 are kept: go-yaml writes them raw and reads them back as they were.
 */
const NEL = 0x85;
/** Characters go-yaml's reader refuses in its input ("control characters are not allowed"). */
const isRefused = (c: number) => c === 0x7f || (c >= 0x80 && c <= 0x9f && c !== 0x85) || c === 0xfffe || c === 0xffff || (c >= 0xd800 && c <= 0xdfff);

export const utf8Length = (s: string): number => {
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
export function codePoints(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) n--;
  }
  return n;
}

/** Which styles can write a string, as analyzeScalar finds. */
export interface Analysis {
  multiline: boolean;
  blockPlain: boolean;
  single: boolean;
  block: boolean;
}

export const SIMPLE_ANALYSIS: Analysis = { multiline: false, blockPlain: true, single: true, block: true };

/** Characters that may not start a plain scalar (`?`, `:` and `-` only when a space or the end follows). */
const LEADING_INDICATOR = new Uint8Array(128);
for (const c of '#,[]{}&*!|>\'"%@`') LEADING_INDICATOR[c.charCodeAt(0)] = 1;

/**
 * What analyzeScalar() would find for most pod strings, in one cheap pass: printable ASCII, no leading or trailing
 * space, no indicator at the start, no `: ` or ` #` inside. Such a string may be plain and needs no escape.
 */
export function isSimple(s: string): boolean {
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

/**
 * yaml_emitter_analyze_scalar (unicode output, block context): which styles can write `value`. `note` hears of
 * each character kubectl could not carry through its YAML.
 */
export function analyzeScalar(value: string, note: (kind: ProblemKind, codePoint: number) => void): Analysis {
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
    if (isRefused(c)) note('refused', c);
    // Not printable, so escaped here (\N) and the value reads back; kubectl's YAML would print a space.
    else if (c === NEL) note('altered', c);
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

const HEX = '0123456789ABCDEF';
const NAMED: Record<number, string> = { 0: '0', 7: 'a', 8: 'b', 9: 't', 10: 'n', 11: 'v', 12: 'f', 13: 'r', 27: 'e', 34: '"', 92: '\\', 0x85: 'N', 0xa0: '_', 0x2028: 'L', 0x2029: 'P' };

/** go-yaml's escape in a double-quoted scalar: a name, else \xXX, \uXXXX or \UXXXXXXXX in upper-case hex. */
export function escape(c: number): string {
  const named = NAMED[c];
  if (named !== undefined) return `\\${named}`;
  const [letter, width] = c <= 0xff ? ['x', 2] : c <= 0xffff ? ['u', 4] : ['U', 8];
  let hex = '';
  for (let k = (width - 1) * 4; k >= 0; k -= 4) hex += HEX[(c >> k) & 15];
  return `\\${letter}${hex}`;
}
