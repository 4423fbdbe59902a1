import { readdirSync, readFileSync } from 'node:fs';

/** The processes on this machine with `arg` among their arguments (from /proc): whether a command still runs. */
export function processesWithArg(arg: string): string[] {
  return readdirSync('/proc').filter((pid) => {
    if (!/^\d+$/.test(pid)) return false;
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').includes(arg);
    } catch {
      // Ended meanwhile.
      return false;
    }
  });
}
