/**
 * JSON text -> the values go-yaml holds after reading it (sigs.k8s.io/yaml's JSONToYAML reads JSON as YAML):
 * objects as Maps (any key, even `__proto__`), and numbers as the text go-yaml prints for them, because
 * JSON.parse would round int64 values beyond 2^53 and forget whether a literal was written as a float.
 */
import { yamlNumberText } from './go-yaml-rules';

/** A number as go-yaml prints it (see yamlNumberText); small integers stay plain JS numbers. */
export class YamlNumber {
  constructor(readonly text: string) {}
}

export type JsonValue = string | number | boolean | null | YamlNumber | JsonValue[] | JsonObject;
export type JsonObject = Map<string, JsonValue>;

export class JsonSyntaxError extends Error {}

const ESCAPES: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

export function parseJsonValue(text: string): JsonValue {
  let i = 0;
  const fail = (what: string): never => {
    throw new JsonSyntaxError(`not valid JSON: ${what} at character ${i}`);
  };
  const ws = () => {
    for (;;) {
      const c = text.charCodeAt(i);
      if (c === 32 || c === 10 || c === 13 || c === 9) i++;
      else return;
    }
  };
  const str = (): string => {
    // i is just past the opening quote.
    let out = '';
    let from = i;
    for (;;) {
      const c = text.charCodeAt(i);
      if (c === 34) {
        out += text.slice(from, i++);
        return out;
      }
      if (c === 92) {
        out += text.slice(from, i);
        const e = text[i + 1];
        if (e === 'u') {
          const hex = text.slice(i + 2, i + 6);
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) fail('bad \\u escape');
          out += String.fromCharCode(parseInt(hex, 16));
          i += 6;
        } else {
          const r = e === undefined ? undefined : ESCAPES[e];
          if (r === undefined) fail('bad escape');
          out += r;
          i += 2;
        }
        from = i;
        continue;
      }
      if (Number.isNaN(c)) fail('unterminated string');
      if (c < 0x20) fail('control character in string');
      i++;
    }
  };
  const value = (): JsonValue => {
    ws();
    const c = text.charCodeAt(i);
    if (c === 34) {
      i++;
      return str();
    }
    if (c === 123) {
      i++;
      const m: JsonObject = new Map();
      ws();
      if (text.charCodeAt(i) === 125) {
        i++;
        return m;
      }
      for (;;) {
        ws();
        if (text.charCodeAt(i) !== 34) fail('expected a key');
        i++;
        const k = str();
        ws();
        if (text.charCodeAt(i) !== 58) fail("expected ':'");
        i++;
        m.set(k, value());
        ws();
        const d = text.charCodeAt(i++);
        if (d === 125) return m;
        if (d !== 44) fail("expected ',' or '}'");
      }
    }
    if (c === 91) {
      i++;
      const a: JsonValue[] = [];
      ws();
      if (text.charCodeAt(i) === 93) {
        i++;
        return a;
      }
      for (;;) {
        a.push(value());
        ws();
        const d = text.charCodeAt(i++);
        if (d === 93) return a;
        if (d !== 44) fail("expected ',' or ']'");
      }
    }
    if (text.startsWith('true', i)) {
      i += 4;
      return true;
    }
    if (text.startsWith('false', i)) {
      i += 5;
      return false;
    }
    if (text.startsWith('null', i)) {
      i += 4;
      return null;
    }
    const start = i;
    let integer = true;
    for (;;) {
      const d = text.charCodeAt(i);
      if (d >= 48 && d <= 57) i++;
      else if (d === 45 || d === 43) i++;
      else if (d === 46 || d === 101 || d === 69) {
        integer = false;
        i++;
      } else break;
    }
    const literal = text.slice(start, i);
    if (!/^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?$/.test(literal)) fail('expected a value');
    // Up to 15 digits an integer is exact as a JS number and prints the same.
    if (integer && literal.length <= 15) return Number(literal) || 0;
    return new YamlNumber(yamlNumberText(literal));
  };
  const v = value();
  ws();
  if (i < text.length) fail('unexpected text after the value');
  return v;
}
