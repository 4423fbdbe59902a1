import { describe, expect, it } from 'vitest';
import { matchPalette } from './palette-match';
import { moveSelection } from './move-selection';

const items = [
  { kind: 'Node', label: 'kind-worker' },
  { kind: 'Node', label: 'worker-1' },
  { kind: 'Node', label: 'prod-worker-12' },
  { kind: 'Group', label: 'prod (3)' },
  { kind: 'View', label: 'JSON  2' },
  { kind: 'Command', label: 'Export pods…  e' },
] as const;
const labels = (q: string) => matchPalette(q, items).map((i) => i.label);

describe('the : palette matching', () => {
  it('keeps everything for an empty query, in order', () => {
    expect(labels('')).toEqual(items.map((i) => i.label));
  });

  it('puts a start of the name before a start of a word, before anywhere, before letters in order', () => {
    expect(labels('worker')).toEqual(['worker-1', 'kind-worker', 'prod-worker-12']);
    expect(labels('orker-1')).toEqual(['worker-1', 'prod-worker-12']);
    expect(labels('wk12')).toEqual(['prod-worker-12']);
  });

  it('needs every word, and narrows by kind', () => {
    expect(labels('prod 12')).toEqual(['prod-worker-12']);
    expect(labels('group prod')).toEqual(['prod (3)']);
    expect(labels('exp')).toEqual(['Export pods…  e']);
    expect(labels('JSON')).toEqual(['JSON  2']);
    expect(labels('zzz')).toEqual([]);
  });

  it('takes regex characters as text', () => {
    expect(labels('(3')).toEqual(['prod (3)']);
  });
});

describe('j/k/g/G over the rows shown', () => {
  const uids = ['a', 'b', 'c'];
  it('starts at the first row, steps within the ends, and jumps to either end', () => {
    expect(moveSelection(uids, null, 'down')).toBe('a');
    expect(moveSelection(uids, 'a', 'down')).toBe('b');
    expect(moveSelection(uids, 'c', 'down')).toBe('c');
    expect(moveSelection(uids, 'a', 'up')).toBe('a');
    expect(moveSelection(uids, 'b', 'last')).toBe('c');
    expect(moveSelection(uids, 'c', 'first')).toBe('a');
    expect(moveSelection(uids, 'gone', 'up')).toBe('a');
    expect(moveSelection([], null, 'down')).toBeUndefined();
  });
});
