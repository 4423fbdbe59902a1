/**
 * A strict JSON parser for the two cases JSON.parse cannot serve: integers beyond ±(2^53-1), which it
 * rounds (int64 fields must stay exact, as bigint), and errors, which it reports without a reliable position.
 * Pod files use JSON.parse first and come here only for those, so this one can favour clarity over speed.
 */
import type { PodValue } from '../pod/pod-tree';

export class JsonSyntaxError extends Error {
  constructor(
    /** Index in the text (UTF-16 units) where the problem is. */
    readonly index: number,
    readonly problem: string,
    readonly expected: string,
  ) {
    super(`${problem}; expected ${expected}`);
    this.name = 'JsonSyntaxError';
  }
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

function describe(text: string, i: number): string {
  if (i >= text.length) return 'the end of the text';
  const c = text[i]!;
  return c < ' ' ? `control character U+${c.charCodeAt(0).toString(16).padStart(4, '0')}` : `'${c}'`;
}

/** Parses `text` exactly; nesting deeper than `maxDepth` objects and arrays is refused. */
export function parseExactJson(text: string, maxDepth: number): PodValue {
  let i = 0;
  const fail = (problem: string, expected: string): never => {
    throw new JsonSyntaxError(i, problem, expected);
  };
  const ws = () => {
    for (let c = text.charCodeAt(i); c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09; c = text.charCodeAt(++i));
  };
  const string = (): string => {
    const start = ++i;
    let out = '';
    let from = start;
    for (;;) {
      if (i >= text.length) return fail('unterminated string', 'a closing quote');
      const c = text.charCodeAt(i);
      if (c === 0x22) break;
      if (c < 0x20) return fail(`${describe(text, i)} inside a string`, 'it escaped, as \\n or \\u00XX');
      if (c === 0x5c) {
        out += text.slice(from, i);
        const e = text[i + 1];
        const simple: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };
        if (e !== undefined && e in simple) {
          out += simple[e];
          i += 2;
        } else if (e === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) {
          out += String.fromCharCode(parseInt(text.slice(i + 2, i + 6), 16));
          i += 6;
        } else {
          return fail('bad escape in a string', 'one of \\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX');
        }
        from = i;
        continue;
      }
      i++;
    }
    out += text.slice(from, i);
    i++;
    return out;
  };
  const value = (depth: number): PodValue => {
    ws();
    const c = text[i];
    if (c === '{' || c === '[') {
      if (depth >= maxDepth) fail(`nested deeper than ${maxDepth} levels`, 'a pod, which nests far less');
    }
    if (c === '{') {
      i++;
      const obj: Record<string, PodValue> = {};
      ws();
      if (text[i] === '}') {
        i++;
        return obj;
      }
      for (;;) {
        ws();
        if (text[i] !== '"') fail(`${describe(text, i)} where an object key belongs`, 'a quoted key');
        const key = string();
        ws();
        if (text[i] !== ':') fail(`${describe(text, i)} after an object key`, "':'");
        i++;
        obj[key] = value(depth + 1);
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === '}') {
          i++;
          return obj;
        }
        fail(`${describe(text, i)} after an object member`, "',' or '}'");
      }
    }
    if (c === '[') {
      i++;
      const arr: PodValue[] = [];
      ws();
      if (text[i] === ']') {
        i++;
        return arr;
      }
      for (;;) {
        arr.push(value(depth + 1));
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === ']') {
          i++;
          return arr;
        }
        fail(`${describe(text, i)} after an array element`, "',' or ']'");
      }
    }
    if (c === '"') return string();
    for (const [word, v] of [['true', true], ['false', false], ['null', null]] as const) {
      if (text.startsWith(word, i)) {
        i += word.length;
        return v;
      }
    }
    NUMBER.lastIndex = i;
    const m = NUMBER.exec(text);
    if (!m) return fail(`${describe(text, i)} where a value belongs`, 'an object, array, string, number, true, false or null');
    i += m[0].length;
    const n = Number(m[0]);
    // An integer literal a double cannot hold exactly stays exact.
    if (!Number.isSafeInteger(n) && /^-?\d+$/.test(m[0])) return BigInt(m[0]);
    return n;
  };
  const result = value(0);
  ws();
  if (i < text.length) fail(`${describe(text, i)} after the value`, 'nothing more');
  return result;
}
