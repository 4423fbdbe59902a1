/**
 * Where to find the user's ssh-agent, the way ssh(1) decides: IdentityAgent from the config
 * wins (`none` turns the agent off, `SSH_AUTH_SOCK` or `$VAR` name an environment variable),
 * then $SSH_AUTH_SOCK. Windows has no SSH_AUTH_SOCK by default, but the OpenSSH agent service
 * listens on a fixed named pipe.
 */

export const WINDOWS_AGENT_PIPE = '\\\\.\\pipe\\openssh-ssh-agent';

export function resolveAgentPath(
  identityAgent: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): string | undefined {
  if (identityAgent !== undefined && identityAgent !== '') {
    if (identityAgent === 'none') return undefined;
    if (identityAgent === 'SSH_AUTH_SOCK') return env.SSH_AUTH_SOCK || undefined;
    if (identityAgent.startsWith('$')) return env[identityAgent.slice(1)] || undefined;
    return identityAgent;
  }
  if (env.SSH_AUTH_SOCK) return env.SSH_AUTH_SOCK;
  return platform === 'win32' ? WINDOWS_AGENT_PIPE : undefined;
}
