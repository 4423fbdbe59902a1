import { isIP } from 'node:net';
import { SshError } from './ssh-errors';
import { resolveSshRoute, type ResolvedSshHost, type ResolveOptions, type SshOverrides } from './ssh-config';
import type { SshHop, SshTarget } from './ssh-connection';
import { hopAlgorithms } from './ssh-algorithms';
import { unsupportedBySsh2 } from './config-refusals';

/**
 * Turns ssh_config resolution (H1's resolveSshRoute: jump hops first, destination last) into
 * what openSshConnection dials. ProxyCommand cannot be honoured (we do not run local commands
 * for a connection), so it is refused with the alternative, rather than silently ignored.
 */

function toHop(r: ResolvedSshHost): SshHop {
  if (r.proxyCommand) {
    throw unsupportedBySsh2(r.alias, `ProxyCommand (${r.proxyCommand})`, 'it does not run local commands for a connection; use ProxyJump instead');
  }
  // ssh2 dials an address literal of the other family anyway; ssh cannot resolve it and stops.
  const literal = isIP(r.hostname);
  if ((r.addressFamily === 'inet' && literal === 6) || (r.addressFamily === 'inet6' && literal === 4)) {
    throw new SshError('HOST_NOT_FOUND', `Could not resolve hostname ${r.hostname}: AddressFamily ${r.addressFamily} does not allow an IPv${literal} address (ssh refuses it too)`,
      `Change AddressFamily or HostName for ${r.alias} in your ssh config.`);
  }
  const refused = r.unsupported.find((u) => u.refuse);
  if (refused) throw unsupportedBySsh2(r.alias, `${refused.keyword} ${refused.value}`, refused.why);
  // Login features only OpenSSH has: named if the login then fails, instead of a bare "tried: publickey".
  const authUnsupported = [...r.certificateFiles.map((f) => `CertificateFile ${f}`), ...(r.gssapiAuthentication ? ['GSSAPIAuthentication yes'] : [])];
  const notices = r.unsupported.map((u) => `${r.alias}: ${u.keyword} ${u.value} is not used by Nodescope's built-in SSH transport: ${u.why}.`);
  return {
    ...(notices.length ? { notices } : {}),
    ...(authUnsupported.length ? { authUnsupported } : {}),
    ...(r.addressFamily !== 'any' ? { addressFamily: r.addressFamily } : {}),
    ...(r.bindAddress !== undefined ? { bindAddress: r.bindAddress } : {}),
    host: r.hostname,
    port: r.port,
    user: r.user,
    identityFiles: r.identityFiles,
    identitiesOnly: r.identitiesOnly,
    ...(r.identityAgent !== undefined ? { identityAgent: r.identityAgent } : {}),
    ...(r.hostKeyAlias !== undefined ? { hostKeyAlias: r.hostKeyAlias } : {}),
    ...(r.revokedHostKeys !== undefined ? { revokedHostKeys: r.revokedHostKeys } : {}),
    knownHostsFiles: [...r.userKnownHostsFiles, ...r.globalKnownHostsFiles],
    // BatchMode means nobody is there to answer: unknown host keys are refused, as ssh does.
    strictHostKeyChecking: r.batchMode ? 'yes' : r.strictHostKeyChecking,
    hashKnownHosts: r.hashKnownHosts,
    ...(r.batchMode ? { batchMode: true } : {}),
    ...(r.connectTimeout !== undefined ? { connectTimeout: r.connectTimeout } : {}),
    ...(r.serverAliveInterval > 0 ? { serverAliveInterval: r.serverAliveInterval } : {}),
    serverAliveCountMax: r.serverAliveCountMax,
    algorithms: hopAlgorithms(r.algorithms, r.alias, r.hostKeysInKnownHostsOrder),
    authMethods: r.authMethods,
    pubkeyAlgorithms: r.algorithms.pubkeyacceptedalgorithms,
  };
}

export function sshTargetFromRoute(route: ResolvedSshHost[]): SshTarget {
  const destination = route[route.length - 1];
  if (!destination) throw new Error('empty ssh route: nothing to connect to');
  return { ...toHop(destination), proxyJump: route.slice(0, -1).map(toHop) };
}

/** `destination` as for ssh (`alias`, `user@host`), resolved through the user's ssh_config. */
export async function resolveSshTarget(destination: string, overrides: SshOverrides = {}, opts: ResolveOptions = {}): Promise<SshTarget> {
  return sshTargetFromRoute(await resolveSshRoute(destination, overrides, opts));
}
