import type { SourceKindInfo } from './source-kind';

/** A node reached over SSH: the kubelet's Pods API socket or its REST API, on the node. */
export const SSH_KIND: SourceKindInfo<'ssh'> = {
  kind: 'ssh',
  defaultLabel: (spec) => spec.host,
  describe: (s) => {
    const target = `${s.user ? `${s.user}@` : ''}${s.host}${s.port ? `:${s.port}` : ''}`;
    return [target, s.jumpHost && `via ${s.jumpHost}`, s.socketPath, s.sudo && 'with sudo'].filter(Boolean).join(' · ');
  },
  userAdded: true,
  offline: false,
  simulated: false,
  capabilities: ['logs', 'nodeInfo'],
  group: (spec) => spec.group ?? '',
  cliSource: (spec) => {
    const words = [spec.user ? `${spec.user}@${spec.host}` : spec.host];
    if (spec.port) words.push('-p', String(spec.port));
    if (spec.identityFile) words.push('-i', spec.identityFile);
    if (spec.jumpHost) words.push('-J', spec.jumpHost);
    if (spec.socketPath) words.push('--socket', spec.socketPath);
    if (spec.sudo) words.push('--sudo');
    return words;
  },
  sameSource: (a, b) => a.host === b.host && a.user === b.user && a.port === b.port && a.jumpHost === b.jumpHost && a.socketPath === b.socketPath,
  sameMachine: (a, b) => a.host === b.host && (a.port ?? 22) === (b.port ?? 22) && (a.jumpHost ?? '') === (b.jumpHost ?? ''),
  addAgain: 'add',
};
