import { SshError } from './ssh-errors';

/**
 * Refusals for ssh_config settings the built-in (ssh2) transport cannot honour. Ignoring such a
 * setting could let a connection through that `ssh` would refuse, so the connection is not made,
 * and the message names the setting and what to do instead.
 */
export function unsupportedBySsh2(host: string, feature: string, detail?: string): SshError {
  return new SshError(
    'NEEDS_OPENSSH',
    `${feature} (ssh config for ${host}) needs the OpenSSH transport: Nodescope's built-in SSH transport cannot honour it${detail ? `: ${detail}` : ''}; not connecting.`,
    `Connect to ${host} with OpenSSH's ssh instead, or remove or change ${feature.split(' ')[0]} for this host in your ssh config.`,
  );
}
