import { SshError } from '../ssh-errors';

/**
 * What an ssh run that failed said, as an SshError: its last stderr lines, unclassified (telling a changed
 * host key from a refused login is classifyOpenSshFailure's job, which replaces this where it is available).
 */

export interface SshRunContext {
  host: string;
  port: number;
  stage: 'login' | 'streamlocal' | 'tcp' | 'exec';
  path?: string;
}

const STAGE_TEXT = { login: 'log in', streamlocal: 'open a stream to', tcp: 'open a TCP stream to', exec: 'run a command on' } as const;

export function sshExitError(stderr: string, exitCode: number | null, ctx: SshRunContext): SshError {
  // ssh's informational lines (a host remembered, -v debug) are not the failure.
  const said = stderr.split(/\r?\n/).filter((l) => l.trim() && !/^(debug\d|Warning: Permanently added)/.test(l)).slice(-4).join(' / ');
  const where = ctx.path ? `${ctx.path} on ${ctx.host}` : `${ctx.host}:${ctx.port}`;
  return new SshError('CONNECTION_LOST', `ssh could not ${STAGE_TEXT[ctx.stage]} ${where} (${exitCode === null ? 'killed' : `exit ${exitCode}`})${said ? `: ${said}` : ''}`,
    `Run \`ssh -v ${ctx.host}\` to see what ssh says, and fix it there: Nodescope uses the same ssh and ssh_config.`);
}
