import { describe, expect, it } from 'vitest';
import { evalJsonPath, maskPathOf, parseJsonPath } from './json-path';

const pod = {
  metadata: { name: 'cart-0', labels: { 'app.kubernetes.io/name': 'cart' } },
  status: { containerStatuses: [{ name: 'a', restartCount: 3 }, { name: 'b', restartCount: 5 }] },
};

describe("kubectl's JSONPath for --sort-by and custom-columns", () => {
  it.each(['{.metadata.name}', '.metadata.name', 'metadata.name', " { .metadata['name'] } "])('reads %j as the pod name', (path) => {
    expect(evalJsonPath(pod, parseJsonPath(path, '--sort-by'))).toEqual(['cart-0']);
  });

  it('takes indexes, [*], and escaped dots in a field name', () => {
    expect(evalJsonPath(pod, parseJsonPath('.status.containerStatuses[1].restartCount', 'x'))).toEqual([5]);
    expect(evalJsonPath(pod, parseJsonPath('.status.containerStatuses[*].name', 'x'))).toEqual(['a', 'b']);
    expect(evalJsonPath(pod, parseJsonPath('.metadata.labels.app\\.kubernetes\\.io/name', 'x'))).toEqual(['cart']);
  });

  it('reaches nothing through an absent field or index', () => {
    expect(evalJsonPath(pod, parseJsonPath('.spec.nodeName', 'x'))).toEqual([]);
    expect(evalJsonPath(pod, parseJsonPath('.status.containerStatuses[7].name', 'x'))).toEqual([]);
  });

  it('names the mask path a step list reads', () => {
    expect(maskPathOf(parseJsonPath('{.status.containerStatuses[0].restartCount}', 'x'))).toBe('status.containerStatuses.restartCount');
  });

  it.each(['', '{}', '.a..b', '.a[?(@.x)]', '.a[1', '.a b'])('refuses %j naming the option', (bad) => {
    expect(() => parseJsonPath(bad, '--sort-by')).toThrow(/^bad --sort-by .*write a path such as \.metadata\.name/);
  });
});
