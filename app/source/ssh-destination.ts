/**
 * An SSH destination as a source argument names it: what ssh itself takes (an ssh_config alias, a host,
 * user@host), or Docker's `ssh://[user@]host[:port]`, which carries the user and port in the name.
 */
export const SSH_SCHEME = 'ssh://';

export interface SshDestination {
  host: string;
  user?: string;
  port?: number;
}

/** The parts of an ssh:// destination; anything else is passed to ssh_config resolution as it is. */
export function sshDestination(text: string): SshDestination {
  if (!text.startsWith(SSH_SCHEME)) return { host: text };
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new Error(`'${text}' is not an ssh:// destination: write ssh://[user@]host[:port]`);
  }
  if (!url.hostname || (url.pathname !== '' && url.pathname !== '/') || url.search || url.hash || url.password) {
    throw new Error(`'${text}' is not an ssh:// destination: write ssh://[user@]host[:port], with no password, path or query`);
  }
  // IPv6 literals come bracketed from URL; ssh takes them bare.
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  return { host, ...(url.username ? { user: decodeURIComponent(url.username) } : {}), ...(url.port ? { port: Number(url.port) } : {}) };
}
