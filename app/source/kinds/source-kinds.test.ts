import { describe, expect, it } from 'vitest';
import { cliSourceOf, describeSource, groupOfSource, isOffline, isUserAdded, labelOf, sameMachine, sameSource, sourceCan } from './source-kinds';

describe('whether an edited node is the same machine (its pod history kept)', () => {
  it('is for new SSH settings on the same host and port, and for a new socket path on this machine', () => {
    expect(sameMachine({ kind: 'ssh', host: 'worker-1' }, { kind: 'ssh', host: 'worker-1', port: 22, user: 'ops', sudo: true, api: 'rest' })).toBe(true);
    expect(sameMachine({ kind: 'ssh', host: '10.0.0.5', jumpHost: 'bastion-a' }, { kind: 'ssh', host: '10.0.0.5', jumpHost: 'bastion-a', user: 'ops' })).toBe(true);
    expect(sameMachine({ kind: 'unix', socketPath: '/run/a.sock' }, { kind: 'unix', socketPath: '/run/b.sock', group: 'lab' })).toBe(true);
  });

  it('is not for another host, another port, another jump host, or a node moved between SSH and this machine', () => {
    // A private address behind another bastion is usually another machine.
    expect(sameMachine({ kind: 'ssh', host: '10.0.0.5', jumpHost: 'bastion-a' }, { kind: 'ssh', host: '10.0.0.5', jumpHost: 'bastion-b' })).toBe(false);
    expect(sameMachine({ kind: 'ssh', host: 'worker-1' }, { kind: 'ssh', host: 'worker-2' })).toBe(false);
    expect(sameMachine({ kind: 'ssh', host: 'worker-1' }, { kind: 'ssh', host: 'worker-1', port: 2222 })).toBe(false);
    expect(sameMachine({ kind: 'ssh', host: 'worker-1' }, { kind: 'unix', socketPath: '/run/a.sock' })).toBe(false);
  });
});

describe('what each kind of source is, asked of the kind', () => {
  const ssh = { kind: 'ssh', host: 'worker-1', user: 'ops', port: 2222, jumpHost: 'bastion', sudo: true, group: 'prod' } as const;
  const unix = { kind: 'unix', socketPath: '/run/pods.sock' } as const;
  const demo = { kind: 'demo' } as const;
  const snapshot = { kind: 'snapshot', file: '/tmp/pods.json' } as const;
  const recording = { kind: 'recording', file: 'uploaded.recording.ndjson' } as const;

  it('labels a source by its own label, else by what it is', () => {
    expect([ssh, unix, demo, snapshot, recording].map(labelOf)).toEqual(['worker-1', 'unix:/run/pods.sock', 'Demo node', 'pods.json', 'uploaded.recording.ndjson']);
    expect(labelOf({ ...unix, label: 'sim' })).toBe('sim');
  });

  it('remembers, edits and groups only what the user added; only files are offline', () => {
    expect([ssh, unix, demo, snapshot, recording].map(isUserAdded)).toEqual([true, true, false, false, false]);
    expect([ssh, unix, demo, snapshot, recording].map(isOffline)).toEqual([false, false, false, true, true]);
    expect([ssh, unix, demo, snapshot, recording].map(groupOfSource)).toEqual(['prod', '', '', 'Files', 'Files']);
  });

  it('says which capabilities each has, so a view asks for logs rather than for a kind; only files lack logs', () => {
    const all = [ssh, unix, demo, snapshot, recording];
    expect(all.map((s) => sourceCan(s, 'logs'))).toEqual([true, true, true, false, false]);
    expect(all.map((s) => sourceCan(s, 'nodeInfo'))).toEqual([true, true, false, false, false]);
    expect(all.filter((s) => !sourceCan(s, 'logs')).every(isOffline)).toBe(true);
  });

  it('says how each is reached, and how the CLI reaches the same source', () => {
    expect(describeSource(ssh)).toBe('ops@worker-1:2222 · via bastion · with sudo');
    expect(describeSource(snapshot)).toBe('Snapshot file /tmp/pods.json, read-only');
    expect(cliSourceOf(ssh)).toEqual(['ops@worker-1', '-p', '2222', '-J', 'bastion', '--sudo']);
    expect(cliSourceOf(unix)).toEqual(['unix:/run/pods.sock']);
    expect(cliSourceOf(demo)).toEqual([]);
    expect(cliSourceOf(snapshot)).toEqual(['/tmp/pods.json']);
  });

  it('takes a source reached the same way as the same, whatever its label or group, and no two kinds alike', () => {
    expect(sameSource(ssh, { ...ssh, label: 'other', group: 'lab' })).toBe(true);
    expect(sameSource(ssh, { ...ssh, user: 'root' })).toBe(false);
    expect(sameSource(unix, { ...unix, group: 'lab' })).toBe(true);
    expect(sameSource(unix, { kind: 'unix', socketPath: '/run/other.sock' })).toBe(false);
    expect(sameSource(snapshot, { kind: 'recording', file: snapshot.file })).toBe(false);
  });
});
