/**
 * `unix:DIR/*.sock`: a socket source whose file name is a glob (`*`, `?`, `[...]`) stands for every socket
 * in DIR that matches, sorted, as `--hosts-file` stands for its hosts: what reaches every node of
 * `nodescope sim --nodes N` at once. The shell may expand an unquoted one first; both work.
 */
import { readdirSync, statSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { UsageError } from './usage-error';

const GLOB = /[*?[]/;

/** Whether `source` is a `unix:` source with a glob in it. */
export const isSocketGlob = (source: string): boolean => source.startsWith('unix:') && GLOB.test(source);

/** A file-name glob as a RegExp: `*` and `?` never match '/', `[...]` is a character class (`[!...]` negated). */
function globRegExp(glob: string): RegExp {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const ch = glob[i]!;
    if (ch === '*') re += '[^/]*';
    else if (ch === '?') re += '[^/]';
    else if (ch === '[' && glob.indexOf(']', i + 2) > 0) {
      const end = glob.indexOf(']', i + 2);
      let set = glob.slice(i + 1, end);
      if (set.startsWith('!')) set = `^${set.slice(1)}`;
      re += `[${set.replace(/\\/g, '\\\\')}]`;
      i = end;
    } else re += ch.replace(/[.+^${}()|\\\]]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
}

/** The `unix:` sources a glob source names: the sockets matching its file name, sorted by name. */
export function expandSocketGlob(source: string): string[] {
  const path = source.slice('unix:'.length);
  const dir = dirname(path);
  const pattern = basename(path);
  if (!path.startsWith('/')) throw new UsageError(`unix: needs an absolute socket path, e.g. unix:/run/sim/*.sock, got '${source}'`);
  if (GLOB.test(dir)) throw new UsageError(`'${source}': only the file name may be a glob, not the folder ${dir}; name the folder`);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch (err) {
    throw new UsageError(`cannot list ${dir} for '${source}': ${(err as Error).message}; check the folder`);
  }
  const match = globRegExp(pattern);
  const sockets = names
    .filter((name) => match.test(name))
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    .filter((name) => {
      try {
        return statSync(`${dir}/${name}`).isSocket();
      } catch {
        return false;
      }
    });
  if (sockets.length === 0) throw new UsageError(`'${source}' matches no socket in ${dir}; list them with ls -l ${dir}, or start the simulator (nodescope sim --nodes N --socket-dir ${dir})`);
  return sockets.map((name) => `unix:${dir === '/' ? '' : dir}/${name}`);
}
