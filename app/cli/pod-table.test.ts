import { describe, expect, it } from 'vitest';
import { kubectlAge } from './kubectl-age';
import { formatTable } from './pod-table';

const s = 1000;
const m = 60 * s;
const h = 60 * m;
const d = 24 * h;

describe('kubectl AGE column', () => {
  it.each([
    [0, '0s'],
    [119 * s, '119s'],
    [2 * m, '2m'],
    [9 * m + 59 * s, '9m59s'],
    [10 * m + 30 * s, '10m'],
    [179 * m, '179m'],
    [3 * h, '3h'],
    [7 * h + 59 * m, '7h59m'],
    [8 * h + 5 * m, '8h'],
    [47 * h, '47h'],
    [48 * h, '2d'],
    [2 * d + 1 * h, '2d1h'],
    [8 * d + 3 * h, '8d'],
    [729 * d, '729d'],
    [730 * d, '2y'],
    [731 * d, '2y1d'],
    [9 * 365 * d, '9y'],
  ])('%i ms reads %s, as kubectl prints it', (ms, text) => {
    expect(kubectlAge(ms)).toBe(text);
  });

  it('shows a clock skewed into the future as 0s', () => {
    expect(kubectlAge(-5000)).toBe('0s');
  });
});

describe('table layout', () => {
  it('pads every column to its widest cell plus three spaces, without trailing blanks', () => {
    expect(formatTable([['A', 'BB', 'C'], ['long', 'x', '']])).toBe('A      BB   C\nlong   x');
  });
});
