import { describe, expect, it } from 'vitest';
import { destinationFlags, parseSshVersion, sshArgv, streamsToUnixSockets, type OpenSshClient } from './openssh-client';
import { parseJump } from './shared-jumps';

describe('the ssh command line', () => {
  it('names the destination after --, so a name starting with - is never an option', () => {
    expect(sshArgv({ destination: '-oProxyCommand=x', port: 2222 }, ['-O', 'check'])).toEqual(['-p', '2222', '-O', 'check', '--', '-oProxyCommand=x']);
  });

  it("quotes a known_hosts path with a space for ssh's config parser (-o), so it stays one path", () => {
    expect(destinationFlags({ destination: 'n', knownHosts: '/x/my kh' })).toEqual(['-o', 'UserKnownHostsFile="/x/my kh"']);
    expect(destinationFlags({ destination: 'n', knownHosts: '/x/kh' })).toEqual(['-o', 'UserKnownHostsFile=/x/kh']);
  });

  it('reads the version of OpenSSH, and whether its -W reaches a UNIX socket (9.4 and later)', () => {
    const client = (text: string): OpenSshClient => ({ binary: 'ssh', version: parseSshVersion(text)!, env: {} });
    expect(parseSshVersion('OpenSSH_9.2p1 Debian-2+deb12u10, OpenSSL 3.0.19 27 Jan 2026')).toEqual([9, 2]);
    expect(parseSshVersion('OpenSSH_for_Windows_8.6p1, LibreSSL 3.4.3')).toEqual([8, 6]);
    expect(parseSshVersion('Dropbear v2022.83')).toBeUndefined();
    expect(streamsToUnixSockets(client('OpenSSH_9.2p1'))).toBe(false);
    expect(streamsToUnixSockets(client('OpenSSH_9.4p1'))).toBe(true);
    expect(streamsToUnixSockets(client('OpenSSH_10.0p2'))).toBe(true);
  });
});

describe('a ProxyJump entry', () => {
  it('is [user@]host[:port], an IPv6 address in brackets, or an ssh:// URI', () => {
    expect(parseJump('bastion')).toEqual({ host: 'bastion' });
    expect(parseJump('ops@bastion:2222')).toEqual({ host: 'bastion', user: 'ops', port: 2222 });
    expect(parseJump('[fd00::1]:22')).toEqual({ host: 'fd00::1', port: 22 });
    expect(parseJump('ssh://ops@bastion:2200')).toEqual({ host: 'bastion', user: 'ops', port: 2200 });
  });
});
