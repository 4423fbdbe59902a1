/**
 * Expands ssh_config host patterns into the aliases a config defines, as an operator means
 * `nodescope pods 'worker-*'`: every concrete `Host` alias (Includes followed) that the pattern list
 * matches by OpenSSH's rules (`*`, `?`, comma lists, `!` negation). A plain host passes through
 * unchanged, as ssh takes any name; a pattern that matches nothing is an error naming the config.
 */
import { join } from 'node:path';
import { isHostPattern } from '../fleet/host-list';
import { matchPatternList } from './ssh-config-parser';
import { listSshConfigHosts } from './ssh-config';
import { localAccount } from './ssh-config-tokens';

export class HostPatternError extends Error {
  override name = 'HostPatternError';
}

/** The hosts `args` name, patterns expanded in config order, each host once. */
export function expandHostPatterns(args: readonly string[], configFile?: string): string[] {
  let aliases: string[] | undefined;
  const out = new Set<string>();
  for (const arg of args) {
    if (!isHostPattern(arg)) {
      out.add(arg);
      continue;
    }
    aliases ??= listSshConfigHosts(configFile);
    // Host names are matched case-insensitively by ssh.
    const matched = aliases.filter((alias) => matchPatternList(alias, arg, true));
    if (matched.length === 0) {
      const file = configFile ?? join(localAccount().home, '.ssh', 'config');
      throw new HostPatternError(`'${arg}' matches no Host alias in ${file}; list the aliases with grep -i '^ *host ' ${file}, or name the hosts`);
    }
    for (const alias of matched) out.add(alias);
  }
  return [...out];
}
