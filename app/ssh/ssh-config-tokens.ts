import { createHash } from 'node:crypto';
import { hostname as localHostname, userInfo } from 'node:os';

/** Values OpenSSH's %-tokens stand for, fixed once the host, user and port are known. */
export interface TokenValues {
  /** %n: the alias as given. */
  alias: string;
  /** %h: the resolved HostName. */
  hostname: string;
  /** %p */
  port: number;
  /** %r: the remote user. */
  user: string;
  /** %k: HostKeyAlias, else the alias. */
  hostKeyAlias?: string;
  /** %j: the ProxyJump value, '' when none. */
  proxyJump: string;
}

/** The local account as OpenSSH sees it (getpwuid, not $HOME). */
export function localAccount(): { user: string; home: string; uid: number } {
  const info = userInfo();
  return { user: info.username, home: info.homedir, uid: info.uid };
}

/** `~` and `~/...` expand to the local home; `~otheruser` is refused rather than guessed. */
export function expandTilde(path: string, home = localAccount().home): string {
  if (path === '~') return home;
  if (path.startsWith('~/')) return home + path.slice(1);
  if (path.startsWith('~')) throw new Error(`cannot expand ${path}: only ~/ (your own home) is supported; write the full path instead`);
  return path;
}

/** `${NAME}` environment references, as OpenSSH allows in file path options; an unset variable is an error. */
export function expandEnvironment(value: string, env: NodeJS.ProcessEnv = process.env): string {
  return value.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_, name: string) => {
    const v = env[name];
    if (v === undefined) throw new Error(`ssh config value ${value} uses \${${name}}, which is not set in the environment`);
    return v;
  });
}

/** OpenSSH's %C: SHA1 of %l%h%p%r (%j appended since 9.x is not; 9.2 hashes these four). */
function connectionHash(t: TokenValues, local: string): string {
  return createHash('sha1').update(`${local}${t.hostname}${t.port}${t.user}`).digest('hex');
}

/** Expands %-tokens the way ssh does for IdentityFile, UserKnownHostsFile and IdentityAgent. */
export function expandTokens(value: string, t: TokenValues): string {
  const account = localAccount();
  const fqdn = localHostname();
  const table: Record<string, string> = {
    '%': '%',
    C: connectionHash(t, fqdn),
    d: account.home,
    h: t.hostname,
    i: String(account.uid),
    j: t.proxyJump,
    k: t.hostKeyAlias ?? t.alias,
    L: fqdn.split('.')[0] ?? fqdn,
    l: fqdn,
    n: t.alias,
    p: String(t.port),
    r: t.user,
    u: account.user,
  };
  return value.replace(/%(.?)/g, (whole, token: string) => {
    const v = table[token];
    if (v === undefined) throw new Error(`unknown token ${whole} in ssh config value ${value}; use %% for a literal %`);
    return v;
  });
}

/** The full treatment ssh gives a path option: ~, then ${ENV}, then %-tokens. */
export function expandPath(value: string, t: TokenValues, env?: NodeJS.ProcessEnv): string {
  return expandTokens(expandEnvironment(expandTilde(value), env), t);
}
