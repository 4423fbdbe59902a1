import { describe, expect, it } from 'vitest';
import { resolveAgentPath, WINDOWS_AGENT_PIPE } from './ssh-agent-path';

describe('resolveAgentPath', () => {
  const env = { SSH_AUTH_SOCK: '/run/user/1000/agent.sock', MY_AGENT: '/tmp/other.sock' };

  it('uses $SSH_AUTH_SOCK unless ssh_config names an IdentityAgent', () => {
    expect(resolveAgentPath(undefined, env, 'linux')).toBe('/run/user/1000/agent.sock');
    expect(resolveAgentPath('/home/me/.1password/agent.sock', env, 'linux')).toBe('/home/me/.1password/agent.sock');
  });

  it('follows IdentityAgent none, SSH_AUTH_SOCK and $VAR like ssh(1)', () => {
    expect(resolveAgentPath('none', env, 'linux')).toBeUndefined();
    expect(resolveAgentPath('SSH_AUTH_SOCK', env, 'linux')).toBe('/run/user/1000/agent.sock');
    expect(resolveAgentPath('$MY_AGENT', env, 'linux')).toBe('/tmp/other.sock');
    expect(resolveAgentPath('$UNSET', env, 'linux')).toBeUndefined();
  });

  it('falls back to the OpenSSH agent pipe on Windows, and to no agent elsewhere', () => {
    expect(resolveAgentPath(undefined, {}, 'win32')).toBe(WINDOWS_AGENT_PIPE);
    expect(WINDOWS_AGENT_PIPE).toBe('\\\\.\\pipe\\openssh-ssh-agent');
    expect(resolveAgentPath(undefined, {}, 'darwin')).toBeUndefined();
  });
});
