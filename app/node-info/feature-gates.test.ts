import { describe, expect, it } from 'vitest';
import { featureGatesFromConfig, parseFeatureGateFlag, podsApiGate } from './feature-gates';

describe('feature gates', () => {
  it('parses --feature-gates and names an item that is not NAME=true|false', () => {
    expect(parseFeatureGateFlag('PodsAPI=true, Foo=False,')).toEqual({ PodsAPI: true, Foo: false });
    expect(() => parseFeatureGateFlag('PodsAPI=yes')).toThrow(/'PodsAPI=yes' is not NAME=true/);
  });

  it("takes the config's featureGates map, refusing a value that is not a boolean", () => {
    expect(featureGatesFromConfig({ PodsAPI: false })).toEqual({ PodsAPI: false });
    expect(featureGatesFromConfig(undefined)).toEqual({});
    expect(() => featureGatesFromConfig({ PodsAPI: 'true' })).toThrow(/featureGates.PodsAPI is "true"/);
  });

  it('says the Pods API gate is on or off from the gates first, then from the version default, and absent when neither is known', () => {
    expect(podsApiGate({ PodsAPI: false }, 'v1.37.0')).toEqual({ enabled: false, why: "PodsAPI=false in the kubelet's feature gates" });
    expect(podsApiGate({ PodInfoAPI: true }, undefined).enabled).toBe(true);
    expect(podsApiGate({}, 'v1.37.1').enabled).toBe(true);
    expect(podsApiGate({}, 'v1.36.0').enabled).toBe(false);
    expect(podsApiGate({}, 'v1.30.2')).toEqual({ enabled: false, why: 'kubelet v1.30.2 predates the Pods API (Kubernetes 1.36)' });
    expect(podsApiGate(undefined, undefined)).toEqual({ why: 'neither the feature gates nor the kubelet version were read' });
    expect(podsApiGate({}, undefined).enabled).toBeUndefined();
  });
});
