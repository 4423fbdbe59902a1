import { describe, expect, it } from 'vitest';
import { compileFilter, matchesFilter, narrows, parseFilter } from './filter-language';
import { sortRows } from '../../../renderer/filter/sort-rows';
import { testRow } from '../../contract/testing/test-row';

const rows = [
  testRow({ uid: 'dns', namespace: 'kube-system', name: 'coredns-5d78', labels: { 'k8s-app': 'kube-dns' }, podIP: '10.0.0.10' }),
  testRow({ uid: 'sched', namespace: 'kube-system', name: 'kube-scheduler-n1', isStatic: true, ownerKind: 'Node', ownerName: 'n1', podIP: '172.18.0.2' }),
  testRow({ uid: 'web', namespace: 'shop', name: 'web-7f9c', labels: { app: 'web', tier: 'front' }, restarts: 3, podIP: '10.0.0.9' }),
  testRow({ uid: 'job', namespace: 'batch', name: 'report-281', phase: 'Failed', status: 'Error', ready: 0, ownerKind: 'Job', ownerName: 'report', podIP: '' }),
  testRow({ uid: 'crash', namespace: 'shop', name: 'api-1', status: 'CrashLoopBackOff', ready: 0, total: 2, deleting: true, node: 'node-b' }),
];

const pick = (text: string) => rows.filter((r) => matchesFilter(parseFilter(text), r)).map((r) => r.uid);

describe('filter language', () => {
  it('matches free text against name, namespace, IP and status', () => {
    expect(pick('dns')).toEqual(['dns']);
    expect(pick('SHOP')).toEqual(['web', 'crash']);
    expect(pick('172.18')).toEqual(['sched']);
    expect(pick('crashloop')).toEqual(['crash']);
  });

  it('combines keyed terms with AND, alternatives with commas, and * wildcards', () => {
    expect(pick('ns:shop phase:running')).toEqual(['web', 'crash']);
    expect(pick('ns:shop status:crashloopbackoff')).toEqual(['crash']);
    expect(pick('phase:Error,CrashLoopBackOff')).toEqual(['job', 'crash']);
    expect(pick('ns:kube-*')).toEqual(['dns', 'sched']);
    expect(pick('node:node-b')).toEqual(['crash']);
  });

  it('matches owners by kind, name or kind/name', () => {
    expect(pick('owner:job')).toEqual(['job']);
    expect(pick('owner:Node/n1')).toEqual(['sched']);
    expect(pick('owner:report')).toEqual(['job']);
  });

  it('matches labels by equality, inequality and presence', () => {
    expect(pick('label:app=web')).toEqual(['web']);
    expect(pick('label:k8s-app')).toEqual(['dns']);
    expect(pick('label:constructor')).toEqual([]);
    expect(pick('label:app!=web')).toEqual(['dns', 'sched', 'job', 'crash']);
  });

  it('negates with a leading minus and supports is: flags', () => {
    expect(pick('-ns:kube-system -ns:shop')).toEqual(['job']);
    expect(pick('is:static')).toEqual(['sched']);
    expect(pick('is:notready -is:deleting')).toEqual(['job']);
    expect(pick('is:restarted')).toEqual(['web']);
  });

  it('is:notready leaves out pods that ran to completion, as kubectl and k9s operators read them', () => {
    // kubectl prints a finished Job pod as READY 0/1 STATUS Completed: done, not broken.
    const done = testRow({ uid: 'done', namespace: 'batch', name: 'backup-1', phase: 'Succeeded', status: 'Completed', ready: 0, total: 1 });
    const starting = testRow({ uid: 'starting', phase: 'Running', status: 'Running', ready: 0, total: 1 });
    const pickOf = (text: string) => [done, ...rows, starting].filter((r) => matchesFilter(parseFilter(text), r)).map((r) => r.uid);
    expect(pickOf('is:notready')).toEqual(['job', 'crash', 'starting']);
    expect(pickOf('is:ready')).not.toContain('done');
    expect(pickOf('status:Completed')).toEqual(['done']);
  });

  it('keeps quoted text together', () => {
    expect(parseFilter('"web 7f"').terms).toEqual([{ kind: 'text', text: 'web 7f', negate: false }]);
  });

  it('explains unknown keys and empty values, and still applies the other terms', () => {
    const parsed = parseFilter('ns:shop colour:red phase: is:weird');
    expect(parsed.errors).toEqual([
      'Unknown filter "colour:". Use ns:, phase:, node:, owner:, label:, is: or probe:, or quote the text to search for it.',
      '"phase:" needs a value, e.g. phase:kube-system.',
      'Unknown "is:weird". Use one of is:static, is:deleting, is:ready, is:notready, is:restarted.',
    ]);
    expect(rows.filter((r) => matchesFilter(parsed, r)).map((r) => r.uid)).toEqual(['web', 'crash']);
  });

  it('never matches text across two fields', () => {
    // web-7f9c in shop: the end of the name and the start of the namespace are not one text.
    expect(pick('9cshop')).toEqual([]);
    expect(pick('"9c shop"')).toEqual([]);
    expect(pick('"9ca"')).toEqual([]);
    expect(pick('7f9c')).toEqual(['web']);
  });

  it('knows when a filter only narrows the previous one (typing on)', () => {
    const narrowed = (next: string, previous: string) => narrows(parseFilter(next), parseFilter(previous));
    expect(narrowed('we', 'w')).toBe(true);
    expect(narrowed('web ns:shop', 'web')).toBe(true);
    expect(narrowed('ns:shop web-7', 'ns:shop web')).toBe(true);
    // Backspace, an earlier term changed, a negated term grown, a keyed value grown: each can match more.
    expect(narrowed('w', 'we')).toBe(false);
    expect(narrowed('wa web', 'w web')).toBe(false);
    expect(narrowed('-we', '-w')).toBe(false);
    expect(narrowed('ns:shop2', 'ns:shop')).toBe(false);
    expect(narrowed('web', '')).toBe(false);
  });

  it('matches an owner by a wildcard across kind/name, which neither alone matches', () => {
    const rs = testRow({ uid: 'rs', ownerKind: 'ReplicaSet', ownerName: 'web-abc' });
    const matches = (text: string) => matchesFilter(parseFilter(text), rs);
    expect(matches('owner:r*c')).toBe(true);
    expect(matches('owner:replicaset/web-abc')).toBe(true);
    expect(matches('owner:replicaset/web')).toBe(false);
  });

  it('a compiled filter answers each row by its own value, whatever rows came before it', () => {
    // One matcher over many rows, as the table runs it: values differing in case, and more distinct values than it remembers.
    const matcher = compileFilter(parseFilter('ns:shop owner:web-4*'));
    const many = Array.from({ length: 5000 }, (_, i) => testRow({ uid: `p${i}`, namespace: i % 2 ? 'Shop' : 'shop2', ownerName: `web-${i}` }));
    const picked = many.filter((r) => matcher(r)).map((r) => r.uid);
    expect(picked).toEqual(many.filter((_, i) => i % 2 === 1 && String(i).startsWith('4')).map((r) => r.uid));
    // The same rows again, now known: the same answer.
    expect(many.filter((r) => matcher(r)).map((r) => r.uid)).toEqual(picked);
    expect(compileFilter(parseFilter('label:tier=FR*'))(rows[2]!)).toBe(true);
  });

  it('an empty filter matches everything', () => {
    expect(pick('  ')).toHaveLength(rows.length);
  });
});

describe('sortRows', () => {
  it('sorts IPs numerically and breaks ties by namespace then name', () => {
    expect(sortRows(rows, { key: 'podIP', descending: false }).map((r) => r.podIP)).toEqual(['', '10.0.0.1', '10.0.0.9', '10.0.0.10', '172.18.0.2']);
    expect(sortRows(rows, { key: 'restarts', descending: true })[0]!.uid).toBe('web');
    expect(sortRows(rows, { key: 'status', descending: false }).map((r) => r.uid)).toEqual(['crash', 'job', 'dns', 'sched', 'web']);
  });

  it('sorts ready by ratio and does not mutate its input', () => {
    const before = rows.map((r) => r.uid);
    expect(sortRows(rows, { key: 'ready', descending: false }).map((r) => r.uid).slice(0, 2)).toEqual(['job', 'crash']);
    expect(rows.map((r) => r.uid)).toEqual(before);
  });
});
