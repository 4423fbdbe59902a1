import { describe, expect, it } from 'vitest';
import { parseConfigz, parseKubeletConfigFile } from './kubelet-config';

describe('kubelet config', () => {
  it("reads a kubeadm config.yaml: feature gates, runtime endpoint and healthz address", () => {
    const text = [
      'apiVersion: kubelet.config.k8s.io/v1beta1',
      'kind: KubeletConfiguration',
      'containerRuntimeEndpoint: unix:///run/containerd/containerd.sock',
      'healthzBindAddress: 127.0.0.1',
      'healthzPort: 10248',
      'featureGates:',
      '  PodsAPI: true',
    ].join('\n');
    const f = parseKubeletConfigFile(text, '/var/lib/kubelet/config.yaml');
    expect(f).toMatchObject({ featureGates: { PodsAPI: true }, runtimeEndpoint: 'unix:///run/containerd/containerd.sock', healthzPort: 10248, healthzBindAddress: '127.0.0.1' });
    expect(f.config.kind).toBe('KubeletConfiguration');
  });

  it('reads a JSON config file, leaving out the fields it does not set', () => {
    const f = parseKubeletConfigFile('{"kind":"KubeletConfiguration"}', 'c.json');
    expect(f).toEqual({ config: { kind: 'KubeletConfiguration' }, featureGates: {} });
  });

  it('names a file that is not a kubelet config', () => {
    expect(() => parseKubeletConfigFile('a: [', 'c.yaml')).toThrow(/c.yaml is not YAML or JSON/);
    expect(() => parseKubeletConfigFile('- 1', 'c.yaml')).toThrow(/does not hold a KubeletConfiguration/);
    expect(() => parseKubeletConfigFile('kind: Pod', 'c.yaml')).toThrow(/is a Pod, not a KubeletConfiguration/);
  });

  it('reads /configz, which wraps the configuration in "kubeletconfig"', () => {
    expect(parseConfigz('{"kubeletconfig":{"featureGates":{"PodsAPI":false},"healthzPort":0}}')).toMatchObject({ featureGates: { PodsAPI: false }, healthzPort: 0 });
    expect(() => parseConfigz('{"x":1}')).toThrow(/no "kubeletconfig"/);
    expect(() => parseConfigz('<html>')).toThrow(/did not answer JSON/);
  });
});
