import { describe, expect, it } from 'vitest';
import type { PodTree } from '../pod/pod-tree';
import { matchesFields, parseFieldSelector } from './field-selector';

const pod: PodTree = {
  metadata: { namespace: 'shop', name: 'cart-0' },
  spec: { nodeName: 'w1', restartPolicy: 'Always', schedulerName: 'default-scheduler', serviceAccountName: 'cart' },
  status: { phase: 'Running', podIP: '10.0.0.7', podIPs: [{ ip: '10.0.0.7' }, { ip: 'fd00::7' }] },
};
const matches = (selector: string, p: PodTree = pod) => matchesFields(parseFieldSelector(selector), p);

describe("kubectl's --field-selector for pods", () => {
  it.each([
    ['metadata.name=cart-0', true],
    ['metadata.name==cart-0', true],
    ['metadata.name!=cart-0', false],
    ['metadata.namespace=shop,status.phase=Running', true],
    ['metadata.namespace=shop,status.phase!=Running', false],
    ['spec.nodeName=w1', true],
    ['spec.restartPolicy=Always', true],
    ['spec.schedulerName=default-scheduler', true],
    ['spec.serviceAccountName=cart', true],
    ['status.podIP=10.0.0.7', true],
    ['status.nominatedNodeName=', true],
    ['status.nominatedNodeName!=', false],
    // The server reads an absent hostNetwork as false.
    ['spec.hostNetwork=false', true],
    ['spec.hostNetwork=true', false],
    ['', true],
  ])('%s is %s', (selector, expected) => {
    expect(matches(selector)).toBe(expected);
  });

  it('reads a host-network pod as spec.hostNetwork=true', () => {
    expect(matches('spec.hostNetwork=true', { ...pod, spec: { hostNetwork: true } })).toBe(true);
  });

  it('refuses a field kubectl cannot select pods by, listing those it can', () => {
    expect(() => parseFieldSelector('metadata.labels=x')).toThrow(/cannot be selected by 'metadata.labels'; these fields can: metadata.name, metadata.namespace, spec.nodeName/);
    expect(() => parseFieldSelector('status.phase')).toThrow(/write field=value or field!=value/);
  });

  it('takes an escaped comma as part of the value', () => {
    expect(parseFieldSelector('metadata.name=a\\,b')).toEqual([{ field: 'metadata.name', equal: true, value: 'a,b' }]);
  });
});
