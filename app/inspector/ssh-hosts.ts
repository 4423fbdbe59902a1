import type { SshHost } from '../contract';
import { listSshConfigHosts, resolveSshHost } from '../ssh/ssh-config';

/** Enough for any hand-written config; a generated one with thousands of hosts is cut here. */
const MAX_HOSTS = 500;

/**
 * The add-node dialog's host picker: every concrete Host alias of the user's ssh_config, resolved
 * as ssh would (HostName, User, Port, first IdentityFile, ProxyJump). An alias that does not
 * resolve is still listed, so the user sees it and gets the error when connecting.
 */
export async function listSshHosts(configFile?: string): Promise<SshHost[]> {
  const aliases = listSshConfigHosts(configFile).slice(0, MAX_HOSTS);
  return Promise.all(
    aliases.map(async (alias): Promise<SshHost> => {
      try {
        const r = await resolveSshHost(alias, configFile !== undefined ? { configFile } : {});
        const identityFile = r.identityFiles[0];
        const proxyJump = r.proxyJump.map((j) => `${j.user ? `${j.user}@` : ''}${j.host}${j.port ? `:${j.port}` : ''}`).join(',');
        return {
          alias,
          hostName: r.hostname,
          user: r.user,
          port: r.port,
          ...(identityFile ? { identityFile } : {}),
          ...(proxyJump ? { proxyJump } : {}),
        };
      } catch {
        return { alias };
      }
    }),
  );
}
