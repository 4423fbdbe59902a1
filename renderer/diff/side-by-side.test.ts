import { describe, expect, it } from 'vitest';
import { sideBySide } from './side-by-side';

const lines = (n: number, change?: [number, string]) =>
  `${Array.from({ length: n }, (_, i) => (change && change[0] === i ? change[1] : `line ${i}`)).join('\n')}\n`;

describe('sideBySide', () => {
  it('faces a changed line with its replacement and folds the long unchanged runs around it', () => {
    const { rows, hunks } = sideBySide(lines(30), lines(30, [15, 'line 15 changed']), 2);
    expect(rows.map((r) => (r.kind === 'fold' ? `fold ${r.lines}` : r.kind === 'same' ? r.text : `${r.left?.text} | ${r.right?.text}`))).toEqual([
      'fold 13',
      'line 13',
      'line 14',
      'line 15 | line 15 changed',
      'line 16',
      'line 17',
      'fold 12',
    ]);
    expect(hunks).toEqual([3]);
  });

  it('keeps line numbers of each side through additions and removals', () => {
    const left = 'a\nb\nc\n';
    const right = 'a\nx\ny\nc\n';
    const { rows } = sideBySide(left, right);
    expect(rows).toEqual([
      { kind: 'same', left: 1, right: 1, text: 'a' },
      { kind: 'change', left: { line: 2, text: 'b' }, right: { line: 2, text: 'x' } },
      { kind: 'change', right: { line: 3, text: 'y' } },
      { kind: 'same', left: 3, right: 4, text: 'c' },
    ]);
  });

  it('shows a fold whole once it is opened', () => {
    const first = sideBySide(lines(30), lines(30, [29, 'end']), 1);
    const fold = first.rows[0]!;
    expect(fold.kind).toBe('fold');
    const opened = sideBySide(lines(30), lines(30, [29, 'end']), 1, new Set([fold.kind === 'fold' ? fold.from : -1]));
    expect(opened.rows.filter((r) => r.kind === 'fold')).toEqual([]);
    expect(opened.rows).toHaveLength(30);
  });

  it('neither stops at nor keeps context for a change only noise makes, and folds it with the unchanged lines', () => {
    const left = lines(30, [2, 'resourceVersion 10']);
    const right = lines(30, [2, 'resourceVersion 11']).replace('line 20\n', 'line 20 changed\n');
    const { rows, hunks } = sideBySide(left, right, 2, new Set(), (l, r) => l === 3 || r === 3);
    expect(rows.map((r) => (r.kind === 'fold' ? `fold ${r.lines}` : r.kind === 'same' ? r.text : `${r.left?.text} | ${r.right?.text}`))).toEqual([
      'fold 18',
      'line 18',
      'line 19',
      'line 20 | line 20 changed',
      'line 21',
      'line 22',
      'fold 7',
    ]);
    expect(hunks).toEqual([3]);
  });
});
