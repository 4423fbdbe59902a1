/**
 * The decisions go-yaml v2 (sigs.k8s.io/yaml/goyaml.v2, what kubectl's `-o yaml` runs on) makes about
 * scalars and keys: whether a string would read back as something else when left unquoted (resolve.go:
 * YAML 1.1 booleans, nulls, numbers in Go's bases, timestamps, base-60 floats), how a JSON number comes out
 * once go-yaml has read it (int64, uint64, else float64 printed with Go's 'g' format), and its key order
 * (sorter.go). Browser-safe: the renderer prints YAML too.
 */

/** Plain scalars go-yaml reads as booleans, nulls or special floats (kubectl's go-yaml writes `<<` unquoted). */
const RESOLVED = new Set([
  'y', 'Y', 'yes', 'Yes', 'YES', 'true', 'True', 'TRUE', 'on', 'On', 'ON',
  'n', 'N', 'no', 'No', 'NO', 'false', 'False', 'FALSE', 'off', 'Off', 'OFF',
  '', '~', 'null', 'Null', 'NULL',
  '.nan', '.NaN', '.NAN', '.inf', '.Inf', '.INF', '+.inf', '+.Inf', '+.INF', '-.inf', '-.Inf', '-.INF',
]);
const MAP_HINT = new Set('yYnNtTfFoO~');
/** The longest RESOLVED word: longer strings need no lookup. */
const RESOLVED_MAX = 6;
const isAsciiLetter = (c: number) => (c >= 65 && c <= 90) || (c >= 97 && c <= 122);

const INT64_MIN = -(1n << 63n);
const INT64_MAX = (1n << 63n) - 1n;
const UINT64_MAX = (1n << 64n) - 1n;

const YAML_STYLE_FLOAT = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/;
const DOT_FLOAT = /^\.[0-9]+([eE][-+]?[0-9]+)?$/;
const NUMBER_CHARS = /^[-+0-9a-fA-FxXoO._]*$/;
const BASE60_FLOAT = /^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$/;

/** strconv.ParseInt/ParseUint(s, 0, 64): the value, or why not ('syntax' or 'range'). */
function goParseInteger(s: string, signed: boolean): bigint | 'syntax' | 'range' {
  let i = 0;
  let negative = false;
  if (signed && (s[0] === '+' || s[0] === '-')) {
    negative = s[0] === '-';
    i = 1;
  }
  let base = 10;
  let digits = s.slice(i);
  if (digits.length > 1 && digits[0] === '0') {
    const p = digits[1]!.toLowerCase();
    if (p === 'x' || p === 'o' || p === 'b') {
      base = p === 'x' ? 16 : p === 'o' ? 8 : 2;
      digits = digits.slice(2);
    } else {
      base = 8;
      digits = digits.slice(1);
    }
  }
  const valid = base === 16 ? /^[0-9a-fA-F]+$/ : base === 8 ? /^[0-7]+$/ : base === 2 ? /^[01]+$/ : /^[0-9]+$/;
  if (!valid.test(digits)) return 'syntax';
  const prefix = base === 16 ? '0x' : base === 8 ? '0o' : base === 2 ? '0b' : '';
  let v = BigInt(prefix + digits);
  if (negative) v = -v;
  if (signed ? v < INT64_MIN || v > INT64_MAX : v > UINT64_MAX) return 'range';
  return v;
}

const isDigitAt = (s: string, k: number) => k < s.length && s.charCodeAt(k) >= 48 && s.charCodeAt(k) <= 57;

/** Digits 1-2 long, as Go's time package reads a non-padded field. */
function num2(s: string, at: number): [number, number] | undefined {
  if (!isDigitAt(s, at)) return undefined;
  if (!isDigitAt(s, at + 1)) return [s.charCodeAt(at) - 48, at + 1];
  return [(s.charCodeAt(at) - 48) * 10 + s.charCodeAt(at + 1) - 48, at + 2];
}

const daysIn = (month: number, year: number): number =>
  month === 2 ? (year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31;

/**
 * go-yaml's parseTimestamp: time.Parse with "2006-1-2T15:4:5.999999999Z07:00" (also with a lower-case t),
 * "2006-1-2 15:4:5.999999999" and "2006-1-2", with Go's range checks.
 */
export function isGoYamlTimestamp(s: string): boolean {
  let i = 0;
  while (i < s.length && s.charCodeAt(i) >= 48 && s.charCodeAt(i) <= 57) i++;
  if (i !== 4 || i === s.length || s[i] !== '-') return false;
  const year = Number(s.slice(0, 4));
  const month = num2(s, 5);
  if (!month || month[0] < 1 || month[0] > 12 || s[month[1]] !== '-') return false;
  const day = num2(s, month[1] + 1);
  if (!day) return false;
  const dateOk = day[0] >= 1 && day[0] <= daysIn(month[0], year);
  let at = day[1];
  if (at === s.length) return dateOk;
  const sep = s[at];
  if (sep !== 'T' && sep !== 't' && sep !== ' ' && sep !== '\t' && sep !== '\n' && sep !== '\r' && sep !== '\v' && sep !== '\f') return false;
  at++;
  // The layout's space matches a run of white space.
  if (sep !== 'T' && sep !== 't') while (at < s.length && ' \t\n\r\v\f'.includes(s[at]!)) at++;
  const hour = num2(s, at);
  if (!hour || hour[0] > 23 || s[hour[1]] !== ':') return false;
  const minute = num2(s, hour[1] + 1);
  if (!minute || minute[0] > 59 || s[minute[1]] !== ':') return false;
  const second = num2(s, minute[1] + 1);
  if (!second || second[0] > 59) return false;
  at = second[1];
  if ((s[at] === '.' || s[at] === ',') && /[0-9]/.test(s[at + 1] ?? '')) {
    at += 2;
    while (at < s.length && /[0-9]/.test(s[at]!)) at++;
  }
  if (sep === 'T' || sep === 't') {
    if (s[at] === 'Z') at++;
    else {
      const z = s.slice(at, at + 6);
      if (!/^[+-][0-9]{2}:[0-9]{2}$/.test(z) || Number(z.slice(1, 3)) > 24 || Number(z.slice(4, 6)) > 60) return false;
      at += 6;
    }
  }
  return at === s.length && dateOk;
}

/** Whether go-yaml's resolve("", s) says !!str: the string may be written unquoted (encode.go stringv). */
export function resolvesAsString(s: string): boolean {
  if (s.length <= RESOLVED_MAX && RESOLVED.has(s)) return false;
  const code = s.charCodeAt(0);
  // Past the words above, a string that starts with a letter always stays a string.
  if (isAsciiLetter(code)) return true;
  const c = s[0]!;
  if (c === '.') return !(DOT_FLOAT.test(s) && Number.isFinite(Number(s)));
  if (MAP_HINT.has(c)) return true;
  if (!(c === '+' || c === '-' || (code >= 48 && code <= 57))) return true;
  if (isGoYamlTimestamp(s)) return false;
  // Integers (in Go's bases) and floats are made of these only: anything else ("10.0.0.1/8", "100m") stays a string.
  if (!NUMBER_CHARS.test(s)) return true;
  const plain = s.includes('_') ? s.replace(/_/g, '') : s;
  if (typeof goParseInteger(plain, true) === 'bigint') return false;
  if (typeof goParseInteger(plain, false) === 'bigint') return false;
  // Integers beyond 64 bits that do not look like floats (0xFFFFFFFFFFFFFFFFFFFF) stay plain strings in
  // kubectl 1.32's go-yaml, which predates its big.Int support.
  return !(YAML_STYLE_FLOAT.test(plain) && Number.isFinite(Number(plain)));
}

/** YAML 1.1 base-60 floats (1:20): go-yaml no longer reads them but still quotes them. */
export function isBase60Float(s: string): boolean {
  const c = s.charCodeAt(0);
  if (!(c === 43 || c === 45 || (c >= 48 && c <= 57)) || !s.includes(':')) return false;
  return BASE60_FLOAT.test(s);
}

/** strconv.FormatFloat(x, 'g', -1, 64), then go-yaml's names for the non-finite values. */
export function formatGoFloat(x: number): string {
  if (Number.isNaN(x)) return '.nan';
  if (!Number.isFinite(x)) return x > 0 ? '.inf' : '-.inf';
  if (x === 0) return Object.is(x, -0) ? '-0' : '0';
  const neg = x < 0;
  const [mant, expText] = Math.abs(x).toExponential().split('e') as [string, string];
  const digits = mant.replace('.', '');
  const exp = Number(expText);
  let out: string;
  if (exp < -4 || exp >= 6) {
    const e = Math.abs(exp);
    out = `${digits[0]}${digits.length > 1 ? `.${digits.slice(1)}` : ''}e${exp < 0 ? '-' : '+'}${e < 10 ? `0${e}` : e}`;
  } else if (exp < 0) {
    out = `0.${'0'.repeat(-exp - 1)}${digits}`;
  } else {
    const intPart = digits.slice(0, exp + 1).padEnd(exp + 1, '0');
    const frac = digits.slice(exp + 1);
    out = frac ? `${intPart}.${frac}` : intPart;
  }
  return neg ? `-${out}` : out;
}

/**
 * A JSON number literal as go-yaml prints it after reading it: an int64 or uint64 as its decimal, anything
 * else as a float64 in Go's 'g' format (so 1.0 becomes 1 and 1e6 becomes 1e+06); a literal beyond float64
 * stays a string, printed unquoted as it was.
 */
export function yamlNumberText(literal: string): string {
  const asInt = goParseInteger(literal, true);
  if (typeof asInt === 'bigint') return asInt.toString();
  const asUint = goParseInteger(literal, false);
  if (typeof asUint === 'bigint') return asUint.toString();
  const f = Number(literal);
  return Number.isFinite(f) ? formatGoFloat(f) : literal;
}

const LETTER = /\p{L}/u;
const DIGIT = /\p{Nd}/u;
const isLetter = (c: number) => (c < 128 ? isAsciiLetter(c) : LETTER.test(String.fromCodePoint(c)));
const isDigit = (c: number) => (c < 128 ? c >= 48 && c <= 57 : DIGIT.test(String.fromCodePoint(c)));

/** Whether a sorts before b under go-yaml v2's keyList.Less for string keys (sorter.go). */
function keyLess(a: string, b: string): boolean {
  const ar = Array.from(a, (ch) => ch.codePointAt(0)!);
  const br = Array.from(b, (ch) => ch.codePointAt(0)!);
  for (let i = 0; i < ar.length && i < br.length; i++) {
    if (ar[i] === br[i]) continue;
    const al = isLetter(ar[i]!);
    const bl = isLetter(br[i]!);
    if (al && bl) return ar[i]! < br[i]!;
    if (al || bl) return bl;
    let an = 0;
    let bn = 0;
    if (ar[i] === 48 || br[i] === 48) {
      for (let j = i - 1; j >= 0 && isDigit(ar[j]!); j--) {
        if (ar[j] !== 48) {
          an = 1;
          bn = 1;
          break;
        }
      }
    }
    let ai = i;
    let bi = i;
    for (; ai < ar.length && isDigit(ar[ai]!); ai++) an = an * 10 + ar[ai]! - 48;
    for (; bi < br.length && isDigit(br[bi]!); bi++) bn = bn * 10 + br[bi]! - 48;
    if (an !== bn) return an < bn;
    if (ai !== bi) return ai < bi;
    return ar[i]! < br[i]!;
  }
  return ar.length < br.length;
}

/**
 * keyLess without building code point arrays, for the common case: keys differ first at two ASCII
 * characters neither of which is a digit, so no digit run and no Unicode class is involved. Undefined
 * when the full comparison must decide.
 */
function asciiKeyLess(a: string, b: string): boolean | undefined {
  const n = a.length < b.length ? a.length : b.length;
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    if (x >= 128 || y >= 128 || (x >= 48 && x <= 57) || (y >= 48 && y <= 57)) return undefined;
    const xl = isAsciiLetter(x);
    const yl = isAsciiLetter(y);
    return xl === yl ? x < y : yl;
  }
  // One is a prefix of the other, unless the shorter one ends inside a surrogate pair.
  const last = n > 0 ? a.charCodeAt(n - 1) : 0;
  return last >= 0xd800 && last <= 0xdbff ? undefined : a.length < b.length;
}

/** go-yaml v2's key order: letters after other characters, runs of digits by their number. */
export function compareYamlKeys(a: string, b: string): number {
  if (a === b) return 0;
  return (asciiKeyLess(a, b) ?? keyLess(a, b)) ? -1 : 1;
}
