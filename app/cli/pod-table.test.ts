import { describe, expect, it } from 'vitest';
import { kubectlAge } from './kubectl-age';
import { applyFieldMask, parseFieldMask } from '../mask/field-mask';
import { formatTable, NOT_SELECTED, podTable } from './pod-table';

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

describe('the pods table under a field mask', () => {
  const pod = {
    metadata: { namespace: 'shop', name: 'cart-0', uid: 'u1', creationTimestamp: '2026-01-01T00:00:00Z' },
    status: { phase: 'Running', podIP: '10.0.0.7', containerStatuses: [{ name: 'app', ready: true, restartCount: 2 }] },
  };

  it('marks what the mask left out as <masked>, never as 0/0 ready or 0 restarts', () => {
    const masked = applyFieldMask(pod, parseFieldMask('metadata.name,metadata.namespace,status.phase'));
    const [, row] = podTable([masked], Date.parse('2026-01-02T00:00:00Z'), parseFieldMask('metadata.name,metadata.namespace,status.phase')).split('\n');
    expect(row!.split(/\s{3,}/)).toEqual(['shop', 'cart-0', 'Running', NOT_SELECTED, NOT_SELECTED, NOT_SELECTED, NOT_SELECTED]);
  });

  it('shows every value without a mask, and what a mask selected', () => {
    const [, whole] = podTable([pod], Date.parse('2026-01-02T00:00:00Z')).split('\n');
    expect(whole!.split(/\s{3,}/)).toEqual(['shop', 'cart-0', 'Running', '1/1', '2', '24h', '10.0.0.7']);
    const mask = parseFieldMask('metadata.name,metadata.namespace,status.containerStatuses.restartCount');
    const [, some] = podTable([applyFieldMask(pod, mask)], Date.parse('2026-01-02T00:00:00Z'), mask).split('\n');
    expect(some!.split(/\s{3,}/)).toEqual(['shop', 'cart-0', NOT_SELECTED, NOT_SELECTED, '2', NOT_SELECTED, NOT_SELECTED]);
  });
});
