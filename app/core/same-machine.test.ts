import { describe, expect, it } from 'vitest';
import { sameMachine } from './same-machine';

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
