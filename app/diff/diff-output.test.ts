import { describe, expect, it } from 'vitest';
import { diffPodSets } from './diff-pods';
import { exactJson, podSetDiffJson, podSetPatchLines } from './diff-output';

const pod = (name: string, uid: string, image: string, big = 1n) => ({
  metadata: { namespace: 'ns', name, uid },
  spec: { containers: [{ name: 'app', image }], activeDeadlineSeconds: big },
});

describe('diff output for programs', () => {
  const left = [pod('a', 'u-a', 'a:1'), pod('b', 'u-b', 'b:1'), pod('gone', 'u-gone', 'g:1')];
  const right = [pod('a', 'u-a', 'a:2', 9007199254740993n), pod('b', 'u-b2', 'b:1'), pod('new', 'u-new', 'n:1')];
  const diff = diffPodSets(left, right, (p) => p);

  it('writes one patch line per pod that differs, with the UID pair when matched otherwise than by UID', () => {
    const lines = podSetPatchLines(diff).trimEnd().split('\n');
    expect(lines).toEqual([
      '{"uid":"u-a","namespace":"ns","name":"a","change":"changed","patch":[{"op":"replace","path":"/spec/containers/0/image","value":"a:2"},{"op":"replace","path":"/spec/activeDeadlineSeconds","value":9007199254740993}]}',
      '{"uid":"u-gone","namespace":"ns","name":"gone","change":"removed","patch":[]}',
      '{"uid":"u-new","namespace":"ns","name":"new","change":"added","patch":[]}',
    ]);
  });

  it('writes the structured form with counts, rules and paths, keeping int64 exact', () => {
    const parsed = JSON.parse(podSetDiffJson(diff, { source: 'left.json' }, { source: 'worker-1', mask: 'metadata,spec' }));
    expect(parsed).toMatchObject({ kind: 'NodescopeDiff', version: 1, left: { source: 'left.json' }, right: { mask: 'metadata,spec' } });
    expect(parsed.counts).toEqual({ added: 1, removed: 1, changed: 1, unchanged: 1 });
    expect(parsed.pods[0].changes).toEqual([
      { path: 'spec.containers[name=app].image', kind: 'changed', before: 'a:1', after: 'a:2' },
      { path: 'spec.activeDeadlineSeconds', kind: 'changed', before: 1, after: 9007199254740992 },
    ]);
    expect(podSetDiffJson(diff, { source: 'l' }, { source: 'r' })).toContain('"after": 9007199254740993');
    expect(parsed.rules.samePod.map((r: { id: string }) => r.id)).toEqual(['managedFields', 'resourceVersion']);
  });

  it('prints bigints as numbers and leaves strings that look like markers alone', () => {
    expect(exactJson({ a: 12345678901234567890n, b: 'bigint:1' })).toBe('{"a":12345678901234567890,"b":"bigint:1"}');
  });
});
