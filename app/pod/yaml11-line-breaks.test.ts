import { describe, expect, it } from 'vitest';
import { KubectlYamlError, readKubectlYaml } from './kubectl-yaml-reader';

const L = '\u2028';
const P = '\u2029';

describe('U+2028/U+2029 read as go-yaml reads them', () => {
  it('reads hand-written YAML to the values kubectl v1.32 read from it', () => {
    // Each value as `kubectl patch --local -f FILE -o json` printed it. (A line that a separator leaves
    // unindented inside quotes is not read: kubectl never writes one, and the YAML 1.2 parser ends the value there.)
    const text = [
      'a: "p ' + L + '   q"',
      'b: "p\\',
      '   ' + P + '  q"',
      'b2: "p\\' + L + '   q"',
      'c: "x' + L,
      '   y"',
      'd: "one',
      '',
      '   two' + P + '"',
      "e: 's " + L + "  t''u'",
      'f: |-',
      '  l1' + L + '  l2',
      '  l3',
      'g: "\\L' + L + '  z"',
      "h: '" + L + P + "'",
      'i: "x \\',
      '     y"',
      '',
    ].join('\n');
    expect(readKubectlYaml(text)).toEqual([
      { a: `p${L}q`, b: `p${P}q`, b2: 'pq', c: `x${L}\ny`, d: `one\ntwo${P}`, e: `s${L}t'u`, f: `l1${L}l2\nl3`, g: `${L}${L}z`, h: `${L}${P}`, i: 'x y' },
    ]);
  });

  it('takes a separator ending a literal as its last line break, the next key on the same line', () => {
    expect(readKubectlYaml(`a: |+\n  x\n${P}b: |\n  y${L}  z${L}c: 1\n`)).toEqual([{ a: `x\n${P}`, b: `y${L}z${L}`, c: 1 }]);
  });

  it('refuses the forms kubectl never writes them in instead of guessing', () => {
    expect(() => readKubectlYaml(`a: x${L}  y\n`)).toThrow(KubectlYamlError);
    expect(() => readKubectlYaml(`a: >\n  x${L}  y\n`)).toThrow(/document 1\.a: an unquoted or folded \(>\) value holding U\+2028 or U\+2029/);
  });
});
