import { describe, expect, it } from 'vitest';
import { parseKubeletCmdline } from './kubelet-cmdline';

describe('parseKubeletCmdline', () => {
  it("reads kubeadm's command line: the binary, --config, the runtime endpoint and the gates, in both flag spellings", () => {
    const raw = ['/usr/bin/kubelet', '--bootstrap-kubeconfig=/etc/kubernetes/bootstrap-kubelet.conf', '--config=/var/lib/kubelet/config.yaml',
      '--container-runtime-endpoint', 'unix:///run/containerd/containerd.sock', '--feature-gates=PodsAPI=true,Foo=false', ''].join('\0');
    expect(parseKubeletCmdline(raw)).toEqual({
      binary: '/usr/bin/kubelet',
      configPath: '/var/lib/kubelet/config.yaml',
      runtimeEndpoint: 'unix:///run/containerd/containerd.sock',
      featureGates: 'PodsAPI=true,Foo=false',
    });
  });

  it('leaves out what the command line does not say, and takes the last of a repeated flag as Go does', () => {
    expect(parseKubeletCmdline('kubelet\0-config\0/a.yaml\0--config\0/b.yaml')).toEqual({ binary: 'kubelet', configPath: '/b.yaml' });
  });

  it('refuses an empty command line with what it means', () => {
    expect(() => parseKubeletCmdline('')).toThrow(/empty/);
  });
});
