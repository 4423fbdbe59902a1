/**
 * A list of hosts as an operator pastes it or keeps it in a file: one host per line, blank lines and
 * `#` comments (whole-line or trailing) allowed, duplicates kept once in first-seen order. A line that
 * cannot be one host (two words) is reported by line number, not guessed at. Browser-safe.
 */

export interface HostListProblem {
  line: number;
  text: string;
  reason: string;
}

export interface HostList {
  hosts: string[];
  problems: HostListProblem[];
}

export function parseHostList(text: string): HostList {
  const hosts: string[] = [];
  const seen = new Set<string>();
  const problems: HostListProblem[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.replace(/(^|\s)#.*$/, '').trim();
    if (!line) return;
    if (/\s/.test(line)) {
      problems.push({ line: i + 1, text: raw, reason: 'more than one word: put one host per line' });
      return;
    }
    if (!seen.has(line)) {
      seen.add(line);
      hosts.push(line);
    }
  });
  return { hosts, problems };
}

/** Whether a host argument is an ssh_config pattern list (`worker-*`, `db-?`, `a,b`, `!x`) rather than one host. */
export const isHostPattern = (host: string): boolean => /[*?!,]/.test(host);
