/**
 * The SSH session a node command reads the node through: the user's own ssh (the default where it is on PATH,
 * --ssh openssh: their ssh_config holds whole, prompts on this terminal) or the built-in client (--ssh builtin).
 * Said on stderr with -v; ssh's own debug lines of the login with -vv.
 */
import type { SshTransportChoice } from '../contract/nodes';
import type { SshTarget } from '../ssh/ssh-connection';
import type { HopLabel } from '../ssh/ssh-errors';
import type { SshPrompter } from '../ssh/ssh-prompter';
import type { SshSession } from '../ssh/ssh-session';
import type { SharedConnections } from './kubelet-connection';
import type { NodeCommandOptions } from './node-options';
import { printError } from './terminal-text';
import { socketsToForward } from '../source/kubelet-node/dial-kubelet-node';
import { sshDestination } from '../source/ssh-destination';
import { defaultSshTransport } from '../ssh/default-transport';

export interface NodeSession {
  session: SshSession;
  /** Whom the session logs in as, where: a resolved SshTarget on the built-in transport. */
  target: SshTarget | HopLabel;
  transport: SshTransportChoice;
}

const say = (line: string) => printError(`nodescope: ${line}`);

/** --ssh, else your OpenSSH wherever `ssh` is on PATH, else the built-in client (said once). */
export const sshTransportOf = (opts: Pick<NodeCommandOptions, 'sshTransport'>): SshTransportChoice => opts.sshTransport ?? defaultSshTransport(process.env, say);

export async function sessionToNode(opts: NodeCommandOptions, prompter: SshPrompter, shared?: Pick<SharedConnections, 'jumpPool' | 'progress'>): Promise<NodeSession> {
  const transport = sshTransportOf(opts);
  if (transport === 'openssh') {
    const { createOpenSshSession } = await import('../ssh/openssh/openssh-session');
    const { knownHosts, ...flags } = opts.ssh;
    // ssh://user@host:port names its user and port; the command line's -l and -p still win.
    const { host, ...named } = sshDestination(opts.node);
    const verbose = opts.sshDebug ? (line: string) => say(`ssh: ${line}`) : undefined;
    const { session, label: target } = await createOpenSshSession(
      { destination: host, ...named, ...flags, ...(knownHosts ? { knownHosts } : {}) },
      {
        prompter,
        forwardSockets: socketsToForward(opts),
        ...(verbose ? { verbose } : {}),
        ...(opts.verbose ? { announce: say } : {}),
        ...(shared?.progress ? { onProgress: shared.progress } : {}),
      },
    );
    if (opts.verbose) say(`reaching ${opts.node} (${target.user}@${target.host}:${target.port}) with your OpenSSH client (--ssh openssh)`);
    return { session, target, transport };
  }
  const [{ resolveNodeTarget }, { createSshSession }] = await Promise.all([import('./kubelet-connection'), import('../ssh/ssh-session')]);
  const target = await resolveNodeTarget(opts);
  if (opts.verbose) say(`reaching ${opts.node} (${target.user}@${target.host}:${target.port}) with Nodescope's built-in SSH client (--ssh builtin)`);
  const session = createSshSession(target, {
    prompter,
    ...(shared?.jumpPool ? { jumpPool: shared.jumpPool } : {}),
    ...(shared?.progress ? { onProgress: shared.progress } : {}),
  });
  return { session, target, transport };
}
