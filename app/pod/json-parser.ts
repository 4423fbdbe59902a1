/**
 * A strict JSON parser for what JSON.parse cannot do: keep numbers exact (it rounds integers beyond 2^53 and
 * forgets how a literal was written), hold any object key (even `__proto__`), and say where text is wrong.
 * What objects and numbers become is the caller's (JsonBuild): plain pod values with bigint for pod files,
 * Maps and go-yaml's number text for YAML output.
 */

export class JsonSyntaxError extends Error {
  constructor(
    /** Index in the text (UTF-16 units) where the problem is. */
    readonly index: number,
    readonly problem: string,
    readonly expected: string,
  ) {
    super(`not valid JSON at character ${index}: ${problem}; expected ${expected}`);
    this.name = 'JsonSyntaxError';
  }
}

/** What a parse builds: V is the value type, O an object under construction. */
export interface JsonBuild<V, O> {
  object(): O;
  member(object: O, key: string, value: V): void;
  /** The value of a finished object, and of an array. */
  fromObject(object: O): V;
  fromArray(items: V[]): V;
  /** `literal` is valid JSON number text; `integer` when it has no fraction or exponent. */
  number(literal: string, integer: boolean): V;
  /** Objects and arrays nested deeper than this are refused. */
  maxDepth: number;
}

const ESCAPES: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

function describe(text: string, i: number): string {
  if (i >= text.length) return 'the end of the text';
  const c = text[i]!;
  return c < ' ' ? `control character U+${c.charCodeAt(0).toString(16).padStart(4, '0')}` : `'${c}'`;
}

export function parseJson<V, O>(text: string, build: JsonBuild<V, O>): V {
  let i = 0;
  const fail = (problem: string, expected: string): never => {
    throw new JsonSyntaxError(i, problem, expected);
  };
  const ws = () => {
    for (let c = text.charCodeAt(i); c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09; c = text.charCodeAt(++i));
  };
  // i is at the opening quote.
  const string = (): string => {
    let out = '';
    let from = ++i;
    for (;;) {
      const c = text.charCodeAt(i);
      if (c === 0x22) {
        out += text.slice(from, i++);
        return out;
      }
      if (c === 0x5c) {
        out += text.slice(from, i);
        const e = text[i + 1];
        const simple = e === undefined ? undefined : ESCAPES[e];
        if (simple !== undefined) {
          out += simple;
          i += 2;
        } else if (e === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) {
          out += String.fromCharCode(parseInt(text.slice(i + 2, i + 6), 16));
          i += 6;
        } else {
          fail('bad escape in a string', 'one of \\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX');
        }
        from = i;
        continue;
      }
      if (Number.isNaN(c)) fail('unterminated string', 'a closing quote');
      if (c < 0x20) fail(`${describe(text, i)} inside a string`, 'it escaped, as \\n or \\u00XX');
      i++;
    }
  };
  /** After an object's `{` or `,`: its next key, up to and past the `:`. */
  const key = (): string => {
    ws();
    if (text.charCodeAt(i) !== 0x22) fail(`${describe(text, i)} where an object key belongs`, 'a quoted key');
    const k = string();
    ws();
    if (text.charCodeAt(i) !== 0x3a) fail(`${describe(text, i)} after an object key`, "':'");
    i++;
    return k;
  };
  const scalar = (): V => {
    if (text.charCodeAt(i) === 0x22) return string() as V;
    if (text.startsWith('true', i)) {
      i += 4;
      return true as V;
    }
    if (text.startsWith('false', i)) {
      i += 5;
      return false as V;
    }
    if (text.startsWith('null', i)) {
      i += 4;
      return null as V;
    }
    NUMBER.lastIndex = i;
    const m = NUMBER.exec(text);
    if (!m) fail(`${describe(text, i)} where a value belongs`, 'an object, array, string, number, true, false or null');
    const literal = m![0];
    i += literal.length;
    return build.number(literal, !/[.eE]/.test(literal));
  };
  /**
   * One value. Objects and arrays being read are held on a stack rather than by recursion, so nesting is
   * bounded by maxDepth alone (FieldsV1 nests up to 9,996 levels, far deeper than the call stack).
   */
  const value = (): V => {
    const open: ({ object: O; key: string; items?: undefined } | { items: V[] })[] = [];
    for (;;) {
      ws();
      const c = text.charCodeAt(i);
      if ((c === 0x7b || c === 0x5b) && open.length >= build.maxDepth) fail(`nested deeper than ${build.maxDepth} levels`, 'a pod, which nests far less');
      let v: V;
      if (c === 0x7b) {
        i++;
        ws();
        if (text.charCodeAt(i) !== 0x7d) {
          open.push({ object: build.object(), key: key() });
          continue;
        }
        i++;
        v = build.fromObject(build.object());
      } else if (c === 0x5b) {
        i++;
        ws();
        if (text.charCodeAt(i) !== 0x5d) {
          open.push({ items: [] });
          continue;
        }
        i++;
        v = build.fromArray([]);
      } else v = scalar();
      // Into the object or array it is in, then on past every one that ends here.
      for (;;) {
        const top = open[open.length - 1];
        if (top === undefined) return v;
        if (top.items !== undefined) top.items.push(v);
        else build.member(top.object, top.key, v);
        ws();
        const d = text.charCodeAt(i);
        if (d === (top.items !== undefined ? 0x5d : 0x7d)) {
          i++;
          open.pop();
          v = top.items !== undefined ? build.fromArray(top.items) : build.fromObject(top.object);
          continue;
        }
        if (d !== 0x2c) fail(top.items !== undefined ? `${describe(text, i)} after an array element` : `${describe(text, i)} after an object member`, top.items !== undefined ? "',' or ']'" : "',' or '}'");
        i++;
        if (top.items === undefined) top.key = key();
        break;
      }
    }
  };
  const result = value();
  ws();
  if (i < text.length) fail(`${describe(text, i)} after the value`, 'nothing more');
  return result;
}
