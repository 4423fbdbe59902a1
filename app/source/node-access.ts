/**
 * A source's way to its node beside the kubelet: the node's files (container logs), fixed read-only commands
 * (node info) and plain HTTP on its loopback (the kubelet's healthz). Over SSH they ride the source's own
 * session (one login, never a second); for a socket on this machine, Nodescope runs on the node and reads here.
 * The app's sources, `nodescope logs` and `nodescope node` all reach the node through this one capability.
 */
import type { LogFileAccess } from '../logs/log-file-access';
import type { CommandRunner } from '../node-info/command-runner';
import type { HttpAnswer } from '../node-info/node-info-reader';
import type { SshSession } from '../ssh/ssh-session';

export interface NodeAccess {
  /** The node, for messages. */
  node: string;
  /** Whether what needs root runs through `sudo -n` (the node's setting), and what a refusal should suggest. */
  sudo: boolean;
  /** The node's files, read with fixed commands (app/logs). */
  files: LogFileAccess;
  /** Fixed read-only commands, one at a time (app/node-info). */
  commands: CommandRunner;
  /** GET a path on a port of the node's loopback, plain HTTP. */
  httpGet(port: number, path: string): Promise<HttpAnswer>;
  /** The SSH session it rides; none on the node itself. For what else shares the login (the REST API's /configz). */
  session?: SshSession;
  /** The kubelet's effective configuration (REST `/configz`), where the node is read through its REST API. */
  configz?(): Promise<string>;
}

/** A source that reaches its node beside the kubelet (k9s-style capability): undefined while not connected. */
export interface NodeReachable {
  nodeAccess(): Promise<NodeAccess | undefined>;
}

export interface NodeAccessOptions {
  node: string;
  sudo: boolean;
  /** How long a loopback GET may take. */
  callTimeoutMs?: number;
  /** Where sshd forbids TCP forwarding: the command that bridges to a loopback port ({port}). */
  tcpBridgeCommand?: string;
  /** Told each command the file reads run on the node, for -v. */
  announce?: (command: string) => void;
}

/** Over the source's SSH session, or here when it has none (a socket on this machine). */
export async function openNodeAccess(session: SshSession | undefined, options: NodeAccessOptions): Promise<NodeAccess> {
  const { node, sudo } = options;
  if (!session) {
    const [{ localFileAccess }, { localCommandRunner }, { localHttpGet }] = await Promise.all([
      import('../logs/local-file-access'),
      import('../node-info/command-runner'),
      import('../node-info/node-http'),
    ]);
    return { node, sudo, files: localFileAccess(), commands: localCommandRunner(), httpGet: localHttpGet(options.callTimeoutMs) };
  }
  const [{ nodeFileAccess }, { sshCommandRunner }, { sshHttpGet }] = await Promise.all([
    import('../logs/node-file-access'),
    import('../node-info/command-runner'),
    import('../node-info/node-http'),
  ]);
  const channels = async () => (await session.connection()).channels;
  return {
    node,
    sudo,
    files: nodeFileAccess(channels, { node, sudo, ...(options.announce ? { announce: options.announce } : {}) }),
    commands: sshCommandRunner(channels),
    httpGet: sshHttpGet(() => session.connection(), node, {
      ...(options.callTimeoutMs ? { callTimeoutMs: options.callTimeoutMs } : {}),
      ...(options.tcpBridgeCommand ? { tcpBridgeCommand: options.tcpBridgeCommand } : {}),
    }),
    session,
  };
}
