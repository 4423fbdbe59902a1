/**
 * The running kubelet's command line, as /proc/PID/cmdline holds it (NUL-separated words): where its
 * binary and config file are, and the flags that override the config file (runtime endpoint, feature gates).
 */

export interface KubeletCommandLine {
  /** argv[0]: the binary as it was started (absolute on kubeadm's systemd unit). */
  binary: string;
  configPath?: string;
  runtimeEndpoint?: string;
  /** `--feature-gates` as written, e.g. `PodsAPI=true,Foo=false`. */
  featureGates?: string;
}

/** The value of `--NAME VALUE` or `--NAME=VALUE` (Go's flag package also takes one dash); the last one wins, as in Go. */
function flagValue(words: readonly string[], name: string): string | undefined {
  let value: string | undefined;
  for (let i = 1; i < words.length; i++) {
    const w = words[i]!;
    for (const prefix of [`--${name}`, `-${name}`]) {
      if (w === prefix && i + 1 < words.length) value = words[i + 1]!;
      else if (w.startsWith(`${prefix}=`)) value = w.slice(prefix.length + 1);
    }
  }
  return value;
}

export function parseKubeletCmdline(raw: string): KubeletCommandLine {
  const words = raw.split('\0');
  if (words.at(-1) === '') words.pop();
  if (!words.length || !words[0]) throw new Error('the kubelet command line is empty (a kernel thread or a process that has ended)');
  const out: KubeletCommandLine = { binary: words[0] };
  const configPath = flagValue(words, 'config');
  if (configPath) out.configPath = configPath;
  const runtimeEndpoint = flagValue(words, 'container-runtime-endpoint');
  if (runtimeEndpoint) out.runtimeEndpoint = runtimeEndpoint;
  const featureGates = flagValue(words, 'feature-gates');
  if (featureGates) out.featureGates = featureGates;
  return out;
}
