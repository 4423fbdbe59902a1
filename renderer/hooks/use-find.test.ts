import { describe, expect, it } from 'vitest';
import { findLines, matchCountText, stepMatch } from './use-find';

describe('find in lines (logs, JSON, YAML)', () => {
  it('finds the lines holding the text, case-insensitively; nothing for nothing typed', () => {
    const lines = ['Started container', 'pulling image', 'Back-off restarting failed CONTAINER', ''];
    expect(findLines(lines, 'container')).toEqual([0, 2]);
    expect(findLines(lines, '')).toEqual([]);
    expect(findLines(lines, 'oom')).toEqual([]);
  });

  it('steps to the next and previous match round the end, and says where it is', () => {
    expect([0, 1, 2].map((c) => stepMatch(c, 1, 3))).toEqual([1, 2, 0]);
    expect([0, 1, 2].map((c) => stepMatch(c, -1, 3))).toEqual([2, 0, 1]);
    // Matches went away under the current one (a log that dropped its oldest lines): from the last.
    expect(stepMatch(9, 1, 3)).toBe(0);
    expect(stepMatch(0, 1, 0)).toBe(0);
    expect(matchCountText('err', 1, 3)).toBe('2/3');
    expect(matchCountText('err', 9, 3)).toBe('3/3');
    expect(matchCountText('err', 0, 0)).toBe('no match');
    expect(matchCountText('', 0, 0)).toBe('');
  });
});
