import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { yamlLines } from './yaml-lines';

const kept = join(import.meta.dirname, '..', '..', 'app', 'pod', 'testdata', 'yaml');
const lineText = (l: { tokens: { text: string }[] }) => l.tokens.map((t) => t.text).join('');

describe('yamlLines', () => {
  const text = [
    'apiVersion: v1',
    'metadata:',
    '  annotations:',
    '    note: word0 word1 word2',
    '      word3: not a key',
    '    script: |',
    '      echo a: b',
    '',
    '      echo c',
    '  name: web',
    'spec:',
    '  containers:',
    '  - image: nginx:1.27',
    '    ports:',
    '    - containerPort: 80',
    '  - image: busybox',
    '  hostNetwork: true',
    '  volumes: []',
    '',
  ].join('\n');
  const lines = yamlLines(text);
  const at = (s: string) => lines.findIndex((l) => lineText(l) === s);

  it('keeps every character of every line', () => {
    expect(lines.map(lineText).join('\n')).toBe(text.trimEnd());
  });

  it('folds a mapping, a sequence written at its key\'s indentation, a sequence item and a literal', () => {
    expect(lines[at('metadata:')]!.foldEnd).toBe(at('  name: web'));
    expect(lines[at('  containers:')]!.foldEnd).toBe(at('  - image: busybox'));
    expect(lines[at('  - image: nginx:1.27')]!.foldEnd).toBe(at('    - containerPort: 80'));
    expect(lines[at('    script: |')]!.foldEnd).toBe(at('      echo c'));
    expect(lines[at('  hostNetwork: true')]!.foldEnd).toBeUndefined();
    expect(lines[at('apiVersion: v1')]!.depth).toBe(0);
    expect(lines[at('    ports:')]!.depth).toBe(3);
  });

  it('reads a folded value and a literal\'s text as text, not as keys', () => {
    const kinds = (s: string) => lines[at(s)]!.tokens.filter((t) => t.kind !== 'space').map((t) => t.kind);
    expect(kinds('      word3: not a key')).toEqual(['string']);
    expect(kinds('      echo a: b')).toEqual(['string']);
    expect(kinds('  - image: nginx:1.27')).toEqual(['punct', 'key', 'punct', 'string']);
    expect(kinds('  hostNetwork: true')).toEqual(['key', 'punct', 'literal']);
    expect(kinds('    - containerPort: 80')).toEqual(['punct', 'key', 'punct', 'number']);
  });

  it("splits kubectl's kept YAML without losing a character, and every `key:` with its value below folds", () => {
    for (const file of readdirSync(kept).filter((f) => f.endsWith('.yaml'))) {
      const yaml = readFileSync(join(kept, file), 'utf8');
      const split = yamlLines(yaml);
      expect(split.map(lineText).join('\n'), file).toBe(yaml.replace(/\n$/, ''));
      // go-yaml writes empty values inline ({}, [], "", null): a key that ends its line always has lines under it.
      for (const [i, l] of split.entries()) {
        const last = l.tokens.filter((t) => t.kind !== 'space').slice(-2);
        if (last[0]?.kind === 'key' && last[1]?.text === ':') expect(l.foldEnd, `${file}:${i + 1}`).toBeDefined();
      }
    }
  });
});
