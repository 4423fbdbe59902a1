import { describe, expect, it } from 'vitest';
import { UsageError } from '../cli/usage-error';
import { cliSourceOf } from './kinds/source-kinds';
import { parseSourceArgument } from './source-arguments';
import { sshDestination } from './ssh-destination';

describe('a SOURCE argument, by the scheme its kind registered', () => {
  it('reads ssh:// as an SSH destination before a slash can make it a file', () => {
    expect(parseSourceArgument('ssh://ops@worker-1:2222')).toEqual({ kind: 'ssh', host: 'ssh://ops@worker-1:2222' });
    expect(parseSourceArgument('unix:/run/pods.sock')).toEqual({ kind: 'unix', path: '/run/pods.sock' });
    expect(parseSourceArgument('captures/pods.json')).toEqual({ kind: 'file', path: 'captures/pods.json' });
    expect(parseSourceArgument('worker-1')).toEqual({ kind: 'ssh', host: 'worker-1' });
  });

  it('reads back as the same kind what the kinds write for the CLI (the mask builder\'s command)', () => {
    expect(parseSourceArgument(cliSourceOf({ kind: 'ssh', host: 'worker-1', user: 'ops', port: 2222 })[0]!)).toEqual({ kind: 'ssh', host: 'ops@worker-1' });
    expect(parseSourceArgument(cliSourceOf({ kind: 'unix', socketPath: '/run/pods.sock' })[0]!)).toEqual({ kind: 'unix', path: '/run/pods.sock' });
    expect(parseSourceArgument(cliSourceOf({ kind: 'recording', file: '/tmp/night.recording' })[0]!)).toEqual({ kind: 'file', path: '/tmp/night.recording' });
    expect(cliSourceOf({ kind: 'demo' })).toEqual([]);
  });

  it('refuses a unix: socket that is not absolute, saying how to write one', () => {
    expect(() => parseSourceArgument('unix:pods.sock')).toThrow(UsageError);
    expect(() => parseSourceArgument('unix:pods.sock')).toThrow('unix:/run/pods.sock');
  });
});

describe('an ssh:// destination', () => {
  it('carries its user and port, as Docker writes it; a plain destination is left to ssh_config', () => {
    expect(sshDestination('ssh://ops@worker-1:2222')).toEqual({ host: 'worker-1', user: 'ops', port: 2222 });
    expect(sshDestination('ssh://worker-1')).toEqual({ host: 'worker-1' });
    expect(sshDestination('ssh://[fd00::5]:22')).toEqual({ host: 'fd00::5', port: 22 });
    expect(sshDestination('admin@worker-1')).toEqual({ host: 'admin@worker-1' });
  });

  it('refuses a password, a path or a query in it', () => {
    expect(() => sshDestination('ssh://ops:secret@worker-1')).toThrow('no password');
    expect(() => sshDestination('ssh://worker-1/var/run')).toThrow('ssh://[user@]host[:port]');
  });
});
