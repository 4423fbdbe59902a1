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

/** An ssh_config setting the built-in transport does not implement; `refuse`: connecting anyway could accept what ssh refuses. */
export interface UnsupportedSetting {
  keyword: string;
  value: string;
  refuse: boolean;
  why: string;
}

const isOn = (v: string | undefined) => v !== undefined && !['no', 'false', 'none'].includes(v);

/** Settings (values as `ssh -G` prints them) the built-in transport cannot honour. */
export function findUnsupportedSettings(first: (keyword: string) => string | undefined): UnsupportedSetting[] {
  const out: UnsupportedSetting[] = [];
  const add = (keyword: string, refuse: boolean, why: string) => {
    const value = first(keyword.toLowerCase());
    if (isOn(value)) out.push({ keyword, value: value!, refuse, why });
  };
  add('KnownHostsCommand', true, 'ignoring it could accept a host key your command would reject');
  add('CanonicalizeHostname', true, 'the host would be reached, and looked up in known_hosts, under another name than ssh uses');
  add('BindInterface', true, 'ssh2 cannot bind to an interface');
  add('ControlMaster', false, 'connections are not shared through a control socket (each Nodescope connection logs in itself)');
  add('AddKeysToAgent', false, 'keys loaded from files are not added to ssh-agent');
  return out;
}

/** The words auth-failure reports look for: a login method or key skipped because only OpenSSH has it. */
export const NEEDS_OPENSSH = 'needs the OpenSSH transport';
