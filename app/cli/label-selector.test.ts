import { describe, expect, it } from 'vitest';
import { matchesLabels, parseLabelSelector } from './label-selector';
import { UsageError } from './usage-error';

const matches = (selector: string, labels: Record<string, string>) => matchesLabels(parseLabelSelector(selector), labels);

describe("kubectl's label selector (-l)", () => {
  const web = { app: 'web', tier: 'front', 'app.kubernetes.io/version': '3', replicas: '5' };

  it('reads every kind of requirement of the brief: a=b,c!=d,e in (x,y),!f,g', () => {
    expect(parseLabelSelector('a=b,c!=d,e in (x,y),!f,g')).toEqual([
      { key: 'a', op: 'in', values: ['b'] },
      { key: 'c', op: 'notin', values: ['d'] },
      { key: 'e', op: 'in', values: ['x', 'y'] },
      { key: 'f', op: 'absent' },
      { key: 'g', op: 'exists' },
    ]);
  });

  it.each([
    ['app=web', true],
    ['app==web', true],
    ['app=db', false],
    ['app!=db', true],
    ['missing!=x', true],
    ['app in (db, web)', true],
    ['app notin (db,web)', false],
    ['missing notin (a)', true],
    ['missing in (a)', false],
    ['tier', true],
    ['!tier', false],
    ['!missing', true],
    ['app=web,tier=front', true],
    ['app=web,tier=back', false],
    ['app.kubernetes.io/version=3', true],
    ['replicas>4', true],
    ['replicas<5', false],
    ['app>1', false],
    ['', true],
    ['  app = web ,  tier  ', true],
  ])('%s on app=web,tier=front,... is %s', (selector, expected) => {
    expect(matches(selector, web)).toBe(expected);
  });

  it('takes an empty value, as a label may have one', () => {
    expect(matches('app=', { app: '' })).toBe(true);
    expect(matches('app==', { app: 'web' })).toBe(false);
  });

  it.each(['app=a b', 'in (a)', 'app in a,b', 'app=(x)', '-app', 'app=web,', '!', 'x/y/z=1'])('refuses %j, saying how to write one', (bad) => {
    expect(() => parseLabelSelector(bad)).toThrow(UsageError);
    expect(() => parseLabelSelector(bad)).toThrow(/key=value, key!=value/);
  });

  it('refuses an empty set, as Kubernetes does', () => {
    expect(() => parseLabelSelector('app in ()')).toThrow("'in' needs at least one value, e.g. app in (a,b)");
  });
});
