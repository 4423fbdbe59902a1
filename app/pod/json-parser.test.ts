import { describe, expect, it } from 'vitest';
import { parseExactJson } from '../snapshot/exact-json';
import { JsonSyntaxError } from './json-parser';
import { parseJsonValue, YamlNumber } from './json-value-parser';

function syntaxError(parse: () => unknown): JsonSyntaxError {
  try {
    parse();
  } catch (err) {
    if (err instanceof JsonSyntaxError) return err;
    throw err;
  }
  throw new Error('parsed without an error');
}

describe('the JSON parser behind pod files and YAML output', () => {
  it('keeps int64 values exact where JSON.parse rounds them', () => {
    const text = '{"spec":{"activeDeadlineSeconds":9223372036854775807,"priority":-12,"x":1.5e3}}';
    expect(parseExactJson(text, 64)).toEqual({ spec: { activeDeadlineSeconds: 9223372036854775807n, priority: -12, x: 1500 } });
    const yaml = parseJsonValue(text) as Map<string, Map<string, unknown>>;
    const spec = yaml.get('spec')!;
    expect(spec.get('activeDeadlineSeconds')).toEqual(new YamlNumber('9223372036854775807'));
    expect(spec.get('priority')).toBe(-12);
    // go-yaml prints a float literal as a float, whatever its value.
    expect(spec.get('x')).toBeInstanceOf(YamlNumber);
  });

  it('holds any key, __proto__ included, as a member and not as a prototype', () => {
    const pod = parseExactJson('{"metadata":{"labels":{"__proto__":"x","app":"web"}}}', 64) as { metadata: { labels: Record<string, unknown> } };
    const labels = pod.metadata.labels;
    expect(Object.keys(labels)).toEqual(['__proto__', 'app']);
    expect(Object.getPrototypeOf(labels)).toBe(Object.prototype);
    expect((parseJsonValue('{"__proto__":{"a":1}}') as Map<string, unknown>).get('__proto__')).toEqual(new Map([['a', 1]]));
  });

  it('decodes escapes, \\u ones included', () => {
    expect(parseExactJson('["a\\"b\\\\c\\/d\\n\\u00e9\\ud83d\\ude00"]', 4)).toEqual(['a"b\\c/d\né😀']);
  });

  it.each([
    ['{"a": 1,}', 8, "'}' where an object key belongs; expected a quoted key"],
    ['{"a" 1}', 5, "'1' after an object key; expected ':'"],
    ['[1 2]', 3, "'2' after an array element; expected ',' or ']'"],
    ['{"name": "web', 13, 'unterminated string; expected a closing quote'],
    ['["a\tb"]', 3, 'control character U+0009 inside a string; expected it escaped, as \\n or \\u00XX'],
    ['["\\x"]', 2, 'bad escape in a string; expected one of \\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX'],
    ['{"a": tru}', 6, "'t' where a value belongs; expected an object, array, string, number, true, false or null"],
    ['{} {}', 3, "'{' after the value; expected nothing more"],
    ['', 0, 'the end of the text where a value belongs; expected an object, array, string, number, true, false or null'],
  ])('says where %j is wrong and what belongs there', (text, index, message) => {
    for (const parse of [() => parseExactJson(text, 64), () => parseJsonValue(text)]) {
      const err = syntaxError(parse);
      expect(err.index).toBe(index);
      expect(err.message).toBe(`not valid JSON at character ${index}: ${message}`);
    }
  });

  it('refuses nesting deeper than the limit', () => {
    expect(parseExactJson('[[[1]]]', 3)).toEqual([[[1]]]);
    const err = syntaxError(() => parseExactJson('[[[[1]]]]', 3));
    expect(err.index).toBe(3);
    expect([err.problem, err.expected]).toEqual(['nested deeper than 3 levels', 'a pod, which nests far less']);
  });
});
