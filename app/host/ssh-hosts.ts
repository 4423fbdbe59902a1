import type { HostListExpansion, SshHost } from '../contract';
import { parseHostList } from '../fleet/host-list';
import { listSshConfigHosts, resolveSshHost } from '../ssh/ssh-config';
import { expandHostPatterns, HostPatternError } from '../ssh/ssh-host-patterns';

/** Enough for any hand-written config; a generated one with thousands of hosts is cut here. */
const MAX_HOSTS = 500;

/**
 * The add-node dialog's host picker: every concrete Host alias of the user's ssh_config, resolved
 * as ssh would (HostName, User, Port, first IdentityFile, ProxyJump). An alias that does not
 * resolve is still listed, so the user sees it and gets the error when connecting. A host the others
 * jump through (a bastion) says so, so it is not taken for one of the nodes.
 */
export async function listSshHosts(configFile?: string): Promise<SshHost[]> {
  const aliases = listSshConfigHosts(configFile).slice(0, MAX_HOSTS);
  const jumps = new Map<string, number>();
  const hosts = await Promise.all(
    aliases.map(async (alias): Promise<SshHost> => {
      try {
        const r = await resolveSshHost(alias, configFile !== undefined ? { configFile } : {});
        for (const hop of new Set(r.proxyJump.map((j) => j.host).filter((h) => h !== alias))) jumps.set(hop, (jumps.get(hop) ?? 0) + 1);
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
  return hosts.map((h) => (jumps.has(h.alias) ? { ...h, jumpHostFor: jumps.get(h.alias)! } : h));
}

/**
 * The add-many dialog's list: one host or ssh_config pattern per line (# comments), patterns expanded
 * to the aliases they match. A line that names no host is reported with its number; the others stand.
 */
export function expandHostLines(text: string, configFile?: string): HostListExpansion {
  const list = parseHostList(text);
  const problems = [...list.problems];
  const hosts = new Set<string>();
  const lineOf = (host: string) => text.split(/\r?\n/).findIndex((l) => l.replace(/(^|\s)#.*$/, '').trim() === host) + 1;
  for (const entry of list.hosts) {
    try {
      for (const host of expandHostPatterns([entry], configFile)) hosts.add(host);
    } catch (err) {
      if (!(err instanceof HostPatternError)) throw err;
      problems.push({ line: lineOf(entry), text: entry, reason: err.message });
    }
  }
  return { hosts: [...hosts], problems: problems.sort((a, b) => a.line - b.line) };
}
