import { existsSync, readdirSync, statSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { readSmallFileSync, type SmallFileLimit } from '../fs/read-small-file';
import { SSH_CONFIG_KEYWORDS } from './ssh-config-keywords';
import { expandTilde, localAccount } from './ssh-config-tokens';

/**
 * A reader of OpenSSH client config files for machines without an `ssh` binary: Host and Match
 * blocks, Include with globs, first value wins. It yields raw keyword values (lowercase keys), the
 * same material `ssh -G` prints, for ssh-config.ts to finish.
 */

/** Keywords whose every occurrence counts instead of only the first. */
const ACCUMULATING = new Set(['identityfile', 'certificatefile', 'localforward', 'remoteforward', 'dynamicforward', 'sendenv']);
const DEDUPLICATED = new Set(['identityfile', 'certificatefile']);
/** Keywords Nodescope reads that take exactly one argument; ssh rejects a line with more. */
const SINGLE_ARGUMENT = new Set([
  'hostname', 'user', 'port', 'identityfile', 'proxyjump', 'hostkeyalias', 'stricthostkeychecking', 'identityagent',
  'serveraliveinterval', 'serveralivecountmax', 'connecttimeout', 'identitiesonly', 'hashknownhosts', 'batchmode',
]);
/** Old names ssh still reads as the same option (so one of them set first wins over the other). */
const KEYWORD_ALIASES: Record<string, string> = {
  challengeresponseauthentication: 'kbdinteractiveauthentication',
  pubkeyacceptedkeytypes: 'pubkeyacceptedalgorithms',
};
/** Keywords taking a list of paths: kept one argument per entry, since a quoted path may hold spaces. */
const PATH_LISTS = new Set(['userknownhostsfile', 'globalknownhostsfile']);
const MAX_INCLUDE_DEPTH = 16;
/** Generated configs for big fleets run to megabytes; a config beyond this is a wrong path. */
const SSH_CONFIG_FILE: SmallFileLimit = { what: 'ssh config file', maxBytes: 16 << 20 };
const readConfigLines = (file: string) => readSmallFileSync(file, SSH_CONFIG_FILE).toString('utf8').split('\n');

/** Throws, saying why, for a config file the built-in reader would refuse (a FIFO, a device, a huge file). */
export function checkConfigFile(file: string): void {
  readConfigLines(file);
}

export interface ConfigValues {
  /**
   * keyword (lower case) -> its first occurrence's arguments joined by spaces; accumulating keywords: one
   * entry per occurrence; UserKnownHostsFile and GlobalKnownHostsFile: one entry per argument.
   */
  values: Map<string, string[]>;
}

export interface EvaluateInput {
  /** The destination as given, without a `user@` prefix. */
  alias: string;
  /** Values fixed before the config is read (command-line options); they win over the files. */
  preset: Map<string, string[]>;
  /** An explicit -F file; otherwise ~/.ssh/config and then /etc/ssh/ssh_config. */
  configFile?: string;
  systemConfig?: string;
}

/** OpenSSH's argv_split: whitespace-separated, "double" or 'single' quotes, backslash escapes, # starts a comment. */
export function splitArguments(text: string): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < text.length) {
    while (i < text.length && /\s/.test(text[i]!)) i++;
    if (i >= text.length || text[i] === '#') break;
    let arg = '';
    let quote: string | undefined;
    for (; i < text.length; i++) {
      const c = text[i]!;
      if (quote) {
        if (c === quote) quote = undefined;
        else if (c === '\\' && quote === '"' && (text[i + 1] === '"' || text[i + 1] === '\\')) arg += text[++i];
        else arg += c;
      } else if (c === '"' || c === "'") {
        quote = c;
      } else if (c === '\\' && i + 1 < text.length) {
        arg += text[++i];
      } else if (/\s/.test(c)) {
        break;
      } else {
        arg += c;
      }
    }
    if (quote) throw new Error(`unterminated quote in ssh config: ${text}`);
    out.push(arg);
  }
  return out;
}

/** OpenSSH's match_pattern: `*` and `?` wildcards, everything else literal. */
export function matchPattern(name: string, pattern: string): boolean {
  const re = pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.');
  return new RegExp(`^${re}$`, 's').test(name);
}

/** OpenSSH's match_pattern_list: any matching `!pattern` vetoes, else one positive match is needed. */
export function matchPatternList(name: string, list: string, ignoreCase: boolean): boolean {
  const subject = ignoreCase ? name.toLowerCase() : name;
  let matched = false;
  for (const raw of list.split(',')) {
    const p = ignoreCase ? raw.toLowerCase() : raw;
    if (p.startsWith('!')) {
      if (matchPattern(subject, p.slice(1))) return false;
    } else if (matchPattern(subject, p)) {
      matched = true;
    }
  }
  return matched;
}

/** Files an Include argument names: `~` expanded, relative to ~/.ssh (user) or /etc/ssh (system), globbed and sorted. */
export function includeTargets(arg: string, userConfig: boolean): string[] {
  let path = expandTilde(arg);
  if (!isAbsolute(path)) path = join(userConfig ? join(localAccount().home, '.ssh') : '/etc/ssh', path);
  return globFiles(path);
}

/** One path component of a glob(3) pattern: `*`, `?` and `[...]` classes (`[!...]` negated, ranges). */
function globPartRegExp(part: string): RegExp {
  let re = '';
  for (let i = 0; i < part.length; i++) {
    const c = part[i]!;
    const close = c === '[' ? part.indexOf(']', i + 2) : -1;
    if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else if (close > 0) {
      let body = part.slice(i + 1, close);
      const negate = body.startsWith('!') || body.startsWith('^');
      if (negate) body = body.slice(1);
      re += `[${negate ? '^' : ''}${body.replace(/[\\\]^]/g, '\\$&')}]`;
      i = close;
    } else re += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`, 's');
}

/**
 * ssh's check on the user's config and every Included file: owned by the user or root and not
 * writable by group or others, else "Bad owner or permissions" (someone else could add a
 * ProxyCommand, or turn host key checking off).
 */
function checkOwnerAndMode(file: string): void {
  if (process.platform === 'win32') return;
  const st = statSync(file);
  if ((st.uid !== 0 && st.uid !== localAccount().uid) || (st.mode & 0o022) !== 0) {
    throw new Error(`Bad owner or permissions on ${file} (ssh refuses it too): make it yours and not writable by others, e.g. chmod go-w ${file}`);
  }
}

function globFiles(path: string): string[] {
  const parts = path.split('/').filter(Boolean);
  let bases = ['/'];
  for (const part of parts) {
    const next: string[] = [];
    for (const base of bases) {
      if (!/[*?[]/.test(part)) {
        next.push(join(base, part));
        continue;
      }
      let names: string[] = [];
      try {
        names = readdirSync(base);
      } catch {
        continue;
      }
      const re = globPartRegExp(part);
      for (const name of names.sort()) {
        if (name.startsWith('.') && !part.startsWith('.')) continue; // glob(3) skips dotfiles
        if (re.test(name)) next.push(join(base, name));
      }
    }
    bases = next;
  }
  return bases.filter((p) => existsSync(p));
}

interface ReadState {
  /** The destination as given: `originalhost`, and %h in HostName. */
  alias: string;
  /** What `Host` patterns match: the alias, then on ssh's final pass the HostName it resolved to. */
  host: string;
  values: Map<string, string[]>;
  localUser: string;
  /** ssh reads the files a second time when a `Match final` was seen (or CanonicalizeHostname is on). */
  finalPass: boolean;
  wantFinalPass: boolean;
}

function matchBlockApplies(args: string[], state: ReadState, where: string): boolean {
  if (args.length === 0) throw new Error(`${where}: Match needs criteria`);
  let result = true;
  for (let i = 0; i < args.length; i++) {
    let criterion = args[i]!.toLowerCase();
    const negate = criterion.startsWith('!');
    if (negate) criterion = criterion.slice(1);
    let hit: boolean;
    if (criterion === 'all') {
      hit = true;
    } else if (criterion === 'final' || criterion === 'canonical') {
      // Both match on the final pass only; `final` also asks for one (readconf.c match_cfg_line).
      if (criterion === 'final') state.wantFinalPass = true;
      hit = state.finalPass;
    } else if (['host', 'originalhost', 'user', 'localuser'].includes(criterion)) {
      const list = args[++i];
      if (list === undefined) throw new Error(`${where}: Match ${criterion} needs a pattern list`);
      const hostname = state.values.get('hostname')?.[0];
      const subject = {
        host: hostname ? hostname.replace(/%h/g, state.alias).replace(/%%/g, '%') : state.alias,
        originalhost: state.alias,
        user: state.values.get('user')?.[0] ?? state.localUser,
        localuser: state.localUser,
      }[criterion]!;
      hit = matchPatternList(subject, list, criterion === 'host' || criterion === 'originalhost');
    } else {
      throw new Error(
        `${where}: 'Match ${criterion}' is not supported by the built-in ssh config reader. ` +
          `Install the OpenSSH client (ssh) so Nodescope can use 'ssh -G', or move that block out of the config.`,
      );
    }
    if (negate ? hit : !hit) result = false;
  }
  return result;
}

/** `checkPerm`: as ssh, for ~/.ssh/config and Included files (not for -F or the system file itself). */
function readConfigFile(file: string, userConfig: boolean, state: ReadState, depth: number, neverMatch: boolean, checkPerm: boolean): void {
  if (depth > MAX_INCLUDE_DEPTH) throw new Error(`${file}: Include nested more than ${MAX_INCLUDE_DEPTH} levels deep (a loop?)`);
  const lines = readConfigLines(file);
  if (checkPerm) checkOwnerAndMode(file);
  let active = !neverMatch;
  lines.forEach((rawLine, index) => {
    const where = `${file} line ${index + 1}`;
    const m = /^\s*([^\s=#][^\s=]*)\s*(?:=\s*|\s+|$)(.*)$/.exec(rawLine.replace(/\r$/, ''));
    if (!m) return;
    const keyword = KEYWORD_ALIASES[m[1]!.toLowerCase()] ?? m[1]!.toLowerCase();
    const args = splitArguments(m[2]!);
    switch (keyword) {
      case 'host':
        if (neverMatch) return;
        active = false;
        for (const pattern of args) {
          const negated = pattern.startsWith('!');
          if (!matchPattern(state.host, negated ? pattern.slice(1) : pattern)) continue;
          if (negated) {
            active = false;
            break;
          }
          active = true;
        }
        return;
      case 'match':
        active = !neverMatch && matchBlockApplies(args, state, where);
        return;
      case 'include':
        for (const arg of args) {
          for (const target of includeTargets(arg, userConfig)) readConfigFile(target, userConfig, state, depth + 1, !active, true);
        }
        return;
    }
    if (!SSH_CONFIG_KEYWORDS.has(keyword)) {
      // IgnoreUnknown applies once set (earlier in the files), wherever the unknown keyword stands.
      const ignored = state.values.get('ignoreunknown')?.[0];
      if (ignored !== undefined && matchPatternList(keyword, ignored.replace(/ /g, ','), true)) return;
      throw new Error(`${where}: Bad configuration option: ${keyword} (ssh stops here too). Fix the spelling, or list it in IgnoreUnknown before this line.`);
    }
    if (SINGLE_ARGUMENT.has(keyword) && args.length > 1) throw new Error(`${where}: keyword ${keyword} extra arguments at end of line`);
    if (!active || args.length === 0) return;
    // Values are kept as ssh -G prints them: one line each, arguments joined by a space.
    const value = args.join(' ');
    if (ACCUMULATING.has(keyword)) {
      const earlier = state.values.get(keyword) ?? [];
      // ssh registers an identity or certificate file once, however often it is named (and on both passes).
      if (DEDUPLICATED.has(keyword) && earlier.includes(value)) return;
      state.values.set(keyword, [...earlier, value]);
      return;
    }
    // ProxyJump and ProxyCommand compete: whichever comes first disables the other.
    if (keyword === 'proxyjump' && state.values.has('proxycommand')) return;
    if (keyword === 'proxycommand' && state.values.has('proxyjump')) return;
    if (!state.values.has(keyword)) state.values.set(keyword, PATH_LISTS.has(keyword) ? args : [value]);
  });
}

/** Evaluates the config files for `alias` with the preset (command-line) values taking precedence. */
export function evaluateSshConfig(input: EvaluateInput): ConfigValues {
  const state: ReadState = { alias: input.alias, host: input.alias, values: new Map(input.preset), localUser: localAccount().user, finalPass: false, wantFinalPass: false };
  const readAll = () => {
    if (input.configFile !== undefined) {
      if (!existsSync(input.configFile)) throw new Error(`ssh config file ${input.configFile} does not exist; check the path given with -F / configFile`);
      readConfigFile(input.configFile, true, state, 0, false, false);
    } else {
      const user = join(localAccount().home, '.ssh', 'config');
      if (existsSync(user)) readConfigFile(user, true, state, 0, false, true);
      const system = input.systemConfig ?? '/etc/ssh/ssh_config';
      if (existsSync(system)) readConfigFile(system, false, state, 0, false, false);
    }
  };
  readAll();
  const canonicalize = state.values.get('canonicalizehostname')?.[0]?.toLowerCase();
  if (state.wantFinalPass || (canonicalize !== undefined && !['no', 'false'].includes(canonicalize))) {
    // ssh.c: the files again, first values still winning, with Host patterns now matching the HostName.
    const hostname = state.values.get('hostname')?.[0];
    state.host = (hostname ? hostname.replace(/%h/g, input.alias).replace(/%%/g, '%') : input.alias).toLowerCase();
    state.finalPass = true;
    readAll();
  }
  return { values: state.values };
}

/**
 * Host aliases a user can pick: every `Host` pattern without wildcards or negation, following
 * Include (whatever block it sits in), first occurrence first.
 */
export function listConfigHostAliases(file: string, depth = 0): string[] {
  if (depth > MAX_INCLUDE_DEPTH || !existsSync(file)) return [];
  const out: string[] = [];
  for (const rawLine of readConfigLines(file)) {
    const m = /^\s*([^\s=#][^\s=]*)\s*(?:=\s*|\s+|$)(.*)$/.exec(rawLine.replace(/\r$/, ''));
    if (!m) continue;
    const keyword = m[1]!.toLowerCase();
    if (keyword === 'host') out.push(...splitArguments(m[2]!).filter((p) => !/[*?!]/.test(p)));
    if (keyword === 'include') {
      for (const arg of splitArguments(m[2]!)) for (const t of includeTargets(arg, true)) out.push(...listConfigHostAliases(t, depth + 1));
    }
  }
  return [...new Set(out)];
}

