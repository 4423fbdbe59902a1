import { describe, expect, it } from 'vitest';
import type { NodeInfo } from '../../app/contract/nodes';
import { maskCommands, shellWord } from './mask-commands';

const node = (over: Partial<NodeInfo>): NodeInfo => ({
  id: 'n1',
  label: 'n',
  simulated: false,
  spec: { kind: 'ssh', host: 'worker-1' },
  state: { phase: 'live', since: 1 },
  mask: '',
  maskPaths: [],
  maskHonoured: null,
  podCount: 0,
  ...over,
});

describe('mask commands', () => {
  it('copies the mask as an argument, a metadata line and a whole command for the node', () => {
    const c = maskCommands('metadata.name,status.phase', node({ spec: { kind: 'ssh', host: 'worker-1', user: 'ops', port: 2222, jumpHost: 'bastion', sudo: true } }));
    expect(c.argument).toBe('--mask metadata.name,status.phase');
    expect(c.metadata).toBe('x-kubernetes-fieldmask: metadata.name,status.phase');
    expect(c.command).toBe('nodescope pods ops@worker-1 -p 2222 -J bastion --sudo --mask metadata.name,status.phase');
    expect(maskCommands('status.phase', node({ spec: { kind: 'unix', socketPath: '/tmp/x y/k.sock' } })).command).toBe(
      "nodescope pods 'unix:/tmp/x y/k.sock' --mask status.phase",
    );
    // A file opens offline in the CLI with the same mask.
    expect(maskCommands('status.phase', node({ spec: { kind: 'recording', file: '/data/night.recording' } })).command).toBe(
      'nodescope pods /data/night.recording --mask status.phase',
    );
  });

  it('quotes what a shell would split or expand', () => {
    expect(shellWord("it's")).toBe(`'it'\\''s'`);
    expect(shellWord('a b')).toBe(`'a b'`);
    expect(shellWord('$(rm)')).toBe(`'$(rm)'`);
  });
});
