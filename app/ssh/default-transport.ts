import type { SshTransportChoice } from '../contract/nodes';
import { findSshBinary } from './ssh-config-openssh';

/**
 * Which SSH client reaches a node that names none: the user's own OpenSSH wherever `ssh` is on PATH (their
 * ssh_config holds whole), else the built-in client, said once per process. Windows' OpenSSH has no
 * ControlMaster, which the OpenSSH transport is built on, so there the built-in client stays the default.
 */

let toldFallback = false;

export function defaultSshTransport(env: NodeJS.ProcessEnv = process.env, say?: (line: string) => void): SshTransportChoice {
  if (process.platform !== 'win32' && findSshBinary(env)) return 'openssh';
  if (say && !toldFallback) {
    toldFallback = true;
    say(process.platform === 'win32'
      ? "using Nodescope's built-in SSH client: Windows' OpenSSH has no ControlMaster (--ssh openssh to try yours anyway)"
      : "no ssh on PATH: using Nodescope's built-in SSH client (install the OpenSSH client for ProxyCommand, certificates and FIDO keys)");
  }
  return 'builtin';
}
