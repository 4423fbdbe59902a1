import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { checkConfigFile, evaluateSshConfig, listConfigHostAliases } from './ssh-config-parser';
import { findSshBinary, runSshG } from './ssh-config-openssh';
import { findUnsupportedSettings, type UnsupportedSetting } from './config-refusals';
import { allowedAuthMethods, type AuthMethodName } from './auth-methods';
import { ALGORITHM_KEYWORDS, assembleAlgorithms, isDefaultHostKeyAlgorithms, ordersByKnownHosts, type OpenSshAlgorithms } from './ssh-algorithms';
import { expandPath, expandTilde, localAccount, type TokenValues } from './ssh-config-tokens';

/** Command-line style options; like ssh's -l -p -i -J -F they win over the config file. */
export interface SshOverrides {
  user?: string;
  port?: number;
  identityFiles?: string[];
  /** Comma-separated `[user@]host[:port]` list, as for -J; 'none' disables a configured one. */
  proxyJump?: string;
  configFile?: string;
}

export interface ResolveOptions {
  /** 'auto' (default): `ssh -G` when an ssh binary exists, else the built-in reader. */
  evaluator?: 'auto' | 'openssh' | 'builtin';
  /** ssh binary for 'openssh'/'auto'; default the first `ssh` on PATH. */
  sshBinary?: string;
  env?: NodeJS.ProcessEnv;
}

/** One ProxyJump element; unset user/port come from that host's own config. */
export interface JumpHostSpec {
  user?: string;
  host: string;
  port?: number;
}

export type StrictHostKeyCheckingValue = 'yes' | 'no' | 'ask' | 'accept-new';

export interface ResolvedSshHost {
  /** The destination as given (without user@). */
  alias: string;
  hostname: string;
  user: string;
  port: number;
  /** IdentityFile list, ~ and %-tokens expanded; command-line ones first. Files may not exist (defaults). */
  identityFiles: string[];
  /** ProxyJump hops, outermost first; [] when none. Resolve them with resolveSshRoute. */
  proxyJump: JumpHostSpec[];
  /** Set when the config uses ProxyCommand, which Nodescope cannot run; callers should say so. */
  proxyCommand?: string;
  hostKeyAlias?: string;
  /** RevokedHostKeys, expanded; undefined when not set. */
  revokedHostKeys?: string;
  /** [] for `UserKnownHostsFile none`. */
  userKnownHostsFiles: string[];
  globalKnownHostsFiles: string[];
  strictHostKeyChecking: StrictHostKeyCheckingValue;
  /** Raw IdentityAgent: a path, 'none', 'SSH_AUTH_SOCK' or '$VAR'; undefined when not set. */
  identityAgent?: string;
  serverAliveInterval: number;
  serverAliveCountMax: number;
  /** Seconds; undefined when not set. */
  connectTimeout?: number;
  identitiesOnly: boolean;
  hashKnownHosts: boolean;
  batchMode: boolean;
  /** AddressFamily: 'any', 'inet' (IPv4 only) or 'inet6'. */
  addressFamily: 'any' | 'inet' | 'inet6';
  /** BindAddress: the local address to connect from; undefined when not set. */
  bindAddress?: string;
  /** CertificateFile entries, expanded: certificates only OpenSSH can present. */
  certificateFiles: string[];
  gssapiAuthentication: boolean;
  /** Settings the built-in transport does not implement (ssh-target refuses or notes them). */
  unsupported: UnsupportedSetting[];
  /** Login methods ssh would try, in its order (PreferredAuthentications less those turned off). */
  authMethods: AuthMethodName[];
  /** HostKeyAlgorithms, KexAlgorithms, Ciphers, MACs, PubkeyAcceptedAlgorithms as ssh resolves them (modifiers applied). */
  algorithms: OpenSshAlgorithms;
  /** Whether ssh would try the host's known key types first (HostKeyAlgorithms unset, or `+`/`-` only). */
  hostKeysInKnownHostsOrder: boolean;
  /** Which evaluator produced this. */
  source: 'openssh' | 'builtin';
  /** Problems ssh would warn about, e.g. a missing -i file (which is then left out). */
  warnings: string[];
}

const DEFAULT_IDENTITY_FILES = ['id_rsa', 'id_ecdsa', 'id_ecdsa_sk', 'id_ed25519', 'id_ed25519_sk', 'id_xmss', 'id_dsa'].map((f) => `~/.ssh/${f}`);
const MAX_JUMP_DEPTH = 10;

function checkDestination(alias: string): void {
  // A leading '-' would be read by ssh as an option (e.g. -oProxyCommand=...).
  if (!alias || alias.startsWith('-') || /[\s\0-\x1f]/.test(alias)) {
    throw new Error(`invalid ssh host ${JSON.stringify(alias)}: give a host name or ssh_config alias, not starting with '-' and without spaces`);
  }
}

function parsePort(value: string, what: string): number {
  const port = /^\d+$/.test(value) ? Number(value) : NaN;
  if (!(port >= 1 && port <= 65535)) throw new Error(`bad port '${value}' in ${what}: use a number from 1 to 65535`);
  return port;
}

/** `[user@]host[:port]` or `ssh://[user@]host[:port]`; IPv6 hosts in brackets. */
export function parseJumpHost(spec: string): JumpHostSpec {
  let rest = spec.startsWith('ssh://') ? spec.slice(6) : spec;
  let user: string | undefined;
  const at = rest.lastIndexOf('@');
  if (at >= 0) {
    user = rest.slice(0, at);
    rest = rest.slice(at + 1);
  }
  let host = rest;
  let port: number | undefined;
  const bracketed = /^\[([^\]]+)\](?::(.*))?$/.exec(rest);
  if (bracketed) {
    host = bracketed[1]!;
    if (bracketed[2] !== undefined) port = parsePort(bracketed[2], `ProxyJump ${spec}`);
  } else if (rest.includes(':')) {
    host = rest.slice(0, rest.lastIndexOf(':'));
    port = parsePort(rest.slice(rest.lastIndexOf(':') + 1), `ProxyJump ${spec}`);
  }
  if (!host || (user !== undefined && !user)) throw new Error(`bad ProxyJump element '${spec}': expected [user@]host[:port]`);
  checkDestination(host);
  return { ...(user !== undefined ? { user } : {}), host, ...(port !== undefined ? { port } : {}) };
}

/** Back to ProxyJump syntax, e.g. for display or for ssh's -J. */
export function formatJumpHost(j: JumpHostSpec): string {
  const host = j.host.includes(':') ? `[${j.host}]` : j.host;
  return `${j.user ? `${j.user}@` : ''}${host}${j.port ? `:${j.port}` : ''}`;
}

const yes = (v: string | undefined) => v === 'yes' || v === 'true';

/** Keywords whose values OpenSSH compares without regard to case (its multistate and flag options). */
const MULTISTATE_KEYWORDS = new Set([
  'stricthostkeychecking', 'identitiesonly', 'hashknownhosts', 'batchmode', 'addressfamily', 'pubkeyauthentication',
  'kbdinteractiveauthentication', 'passwordauthentication', 'challengeresponseauthentication', 'gssapiauthentication',
  'canonicalizehostname', 'checkhostip', 'controlmaster', 'addkeystoagent', 'forwardagent', 'updatehostkeys',
  'verifyhostkeydns', 'hostbasedauthentication', 'enablesshkeysign', 'proxyusefdpass', 'requesttty', 'tcpkeepalive',
]);

function strictValue(v: string | undefined): StrictHostKeyCheckingValue {
  switch (v) {
    case 'yes':
    case 'true':
      return 'yes';
    case 'no':
    case 'off':
    case 'false':
      return 'no';
    case 'accept-new':
      return 'accept-new';
    default:
      return 'ask';
  }
}

/**
 * Values both evaluators leave in ssh -G form (but UserKnownHostsFile and GlobalKnownHostsFile as one
 * entry per path); this turns them into the typed result.
 */
function finish(
  alias: string,
  values: Map<string, string[]>,
  source: ResolvedSshHost['source'],
  warnings: string[],
  env: NodeJS.ProcessEnv,
  hostKeysInKnownHostsOrder: boolean,
): ResolvedSshHost {
  // OpenSSH reads yes/no and other multistate values whatever their case (strcasecmp); ssh -G prints them in
  // lower case, the built-in reader as written: `PasswordAuthentication No` must be off for both. ssh -G
  // also prints some as true/false (CanonicalizeHostname, ControlMaster) that users write yes/no.
  const first = (k: string) => {
    const v = values.get(k)?.[0]?.toLowerCase();
    if (v === undefined || !MULTISTATE_KEYWORDS.has(k)) return values.get(k)?.[0];
    return v === 'true' ? 'yes' : v === 'false' ? 'no' : v;
  };
  const hostname = first('hostname') ?? alias.toLowerCase();
  const user = first('user') ?? localAccount().user;
  const port = parsePort(first('port') ?? '22', 'the ssh config Port');
  const proxyJumpText = first('proxyjump');
  const proxyJump = proxyJumpText && proxyJumpText !== 'none' ? proxyJumpText.split(',').map(parseJumpHost) : [];
  const hostKeyAlias = first('hostkeyalias');
  const tokens: TokenValues = { alias, hostname, port, user, proxyJump: proxyJumpText ?? '', ...(hostKeyAlias ? { hostKeyAlias } : {}) };
  const identityAgent = first('identityagent');
  const proxyCommand = first('proxycommand');
  const connectTimeout = first('connecttimeout');
  const userKnownHosts = first('userknownhostsfile');
  // ssh -G prints it as written; ssh expands ~, %-tokens and ${VAR} when it reads the file.
  const revoked = first('revokedhostkeys');
  const bindAddress = first('bindaddress');
  return {
    alias,
    hostname,
    user,
    port,
    identityFiles: (values.get('identityfile') ?? DEFAULT_IDENTITY_FILES).map((f) => expandPath(f, tokens, env)),
    proxyJump,
    ...(proxyCommand && proxyCommand !== 'none' ? { proxyCommand } : {}),
    ...(hostKeyAlias ? { hostKeyAlias } : {}),
    ...(revoked && revoked !== 'none' ? { revokedHostKeys: expandPath(revoked, tokens, env) } : {}),
    userKnownHostsFiles: userKnownHosts === 'none' ? [] : (values.get('userknownhostsfile') ?? []),
    globalKnownHostsFiles: values.get('globalknownhostsfile') ?? [],
    strictHostKeyChecking: strictValue(first('stricthostkeychecking')),
    ...(identityAgent ? { identityAgent } : {}),
    // ssh's default in BatchMode is a keepalive every 300 s (readconf.c fill_default_options).
    serverAliveInterval: Number(first('serveraliveinterval') ?? (yes(first('batchmode')) ? 300 : 0)),
    serverAliveCountMax: Number(first('serveralivecountmax') ?? 3),
    ...(connectTimeout && connectTimeout !== 'none' ? { connectTimeout: Number(connectTimeout) } : {}),
    identitiesOnly: yes(first('identitiesonly')),
    hashKnownHosts: yes(first('hashknownhosts')),
    batchMode: yes(first('batchmode')),
    addressFamily: first('addressfamily') === 'inet' ? 'inet' : first('addressfamily') === 'inet6' ? 'inet6' : 'any',
    ...(bindAddress && bindAddress !== 'none' ? { bindAddress } : {}),
    unsupported: findUnsupportedSettings(first),
    certificateFiles: (values.get('certificatefile') ?? []).map((f) => expandPath(f, tokens, env)),
    gssapiAuthentication: yes(first('gssapiauthentication')),
    authMethods: allowedAuthMethods(first),
    algorithms: Object.fromEntries(ALGORITHM_KEYWORDS.map((k) => [k, (first(k) ?? '').split(',').filter(Boolean)])) as OpenSshAlgorithms,
    hostKeysInKnownHostsOrder,
    source,
    warnings,
  };
}

/**
 * `ssh -G` prints a path list joined by spaces, unquoted, so `"/x/my kh" ~/other` comes out as
 * `/x/my kh /root/other`. The paths are expanded (absolute), so a new path starts at a space
 * before a '/'; a space before anything else is inside a path. (A path containing " /" cannot be
 * told apart from two paths; no reading of ssh's output can.)
 */
export function splitSshGPathList(line: string): string[] {
  return line === 'none' ? ['none'] : line.split(/ (?=\/)/).filter(Boolean);
}

function splitDestination(destination: string, overrides: SshOverrides): { alias: string; user?: string } {
  const at = destination.lastIndexOf('@');
  const alias = at >= 0 ? destination.slice(at + 1) : destination;
  checkDestination(alias);
  const user = overrides.user ?? (at >= 0 ? destination.slice(0, at) : undefined);
  return { alias, ...(user !== undefined ? { user } : {}) };
}

async function viaOpenSsh(binary: string, destination: string, overrides: SshOverrides, env: NodeJS.ProcessEnv): Promise<ResolvedSshHost> {
  const { alias } = splitDestination(destination, overrides);
  const args: string[] = [];
  if (overrides.configFile !== undefined) {
    // ssh would sit on a FIFO given as -F until runSshG's timeout: refuse what the built-in reader refuses.
    if (existsSync(overrides.configFile)) checkConfigFile(overrides.configFile);
    args.push('-F', overrides.configFile);
  }
  if (overrides.user !== undefined) args.push('-l', overrides.user);
  if (overrides.port !== undefined) args.push('-p', String(overrides.port));
  for (const id of overrides.identityFiles ?? []) args.push('-i', id);
  if (overrides.proxyJump !== undefined) args.push('-J', overrides.proxyJump);
  const { values, warnings } = await runSshG(binary, [...args, '--', destination], env);
  const builtin = builtinReading(destination, overrides, env);
  const knownHosts = { userknownhostsfile: builtin?.userKnownHostsFiles, globalknownhostsfile: builtin?.globalKnownHostsFiles };
  for (const [keyword, builtinList] of Object.entries(knownHosts)) {
    const line = values.get(keyword)?.[0];
    if (line === undefined) continue;
    // The built-in reader's split when it read the same paths (a path may contain " /"), else splitSshGPathList's.
    values.set(keyword, builtinList?.length && builtinList.join(' ') === line ? builtinList : splitSshGPathList(line));
  }
  return finish(alias, values, 'openssh', warnings, env, knownHostsOrderFor(values, builtin));
}

/**
 * The built-in reader's result for the same destination, to recover what `ssh -G` prints ambiguously;
 * undefined for a config only ssh can evaluate (Match exec, ...).
 */
function builtinReading(destination: string, overrides: SshOverrides, env: NodeJS.ProcessEnv): ResolvedSshHost | undefined {
  try {
    return viaBuiltin(destination, overrides, env);
  } catch {
    return undefined;
  }
}

/**
 * `ssh -G` prints HostKeyAlgorithms resolved, without the `+`/`-` that decides whether ssh tries known key
 * types first. The built-in reader still has the raw value; it is used when it resolves the same list.
 * Otherwise (a config only ssh can evaluate) only the plain default counts as reordered: wrongly not
 * reordering can refuse a host ssh accepts, wrongly reordering could accept one ssh refuses.
 */
function knownHostsOrderFor(values: Map<string, string[]>, builtin: ResolvedSshHost | undefined): boolean {
  const list = (values.get('hostkeyalgorithms')?.[0] ?? '').split(',');
  if (builtin && builtin.algorithms.hostkeyalgorithms.join(',') === list.join(',')) return builtin.hostKeysInKnownHostsOrder;
  return isDefaultHostKeyAlgorithms(list);
}

function viaBuiltin(destination: string, overrides: SshOverrides, env: NodeJS.ProcessEnv): ResolvedSshHost {
  const { alias, user } = splitDestination(destination, overrides);
  const preset = new Map<string, string[]>();
  const warnings: string[] = [];
  if (user !== undefined) preset.set('user', [user]);
  if (overrides.port !== undefined) preset.set('port', [String(overrides.port)]);
  if (overrides.proxyJump !== undefined) preset.set('proxyjump', [overrides.proxyJump]);
  const ids: string[] = [];
  for (const id of overrides.identityFiles ?? []) {
    // ssh drops a missing -i file with a warning rather than failing.
    const path = expandTilde(id);
    if (existsSync(path)) ids.push(path);
    else warnings.push(`Warning: Identity file ${path} not accessible: No such file or directory.`);
  }
  if (ids.length) preset.set('identityfile', ids);
  const { values } = evaluateSshConfig({ alias, preset, ...(overrides.configFile !== undefined ? { configFile: overrides.configFile } : {}) });

  // ssh -G prints these already expanded; do the same so finish() treats both evaluators alike.
  const hostnameRaw = values.get('hostname')?.[0];
  const hostname = (hostnameRaw ? hostnameRaw.replace(/%(.)/g, (w, t: string) => (t === 'h' ? alias : t === '%' ? '%' : w)) : alias).toLowerCase();
  values.set('hostname', [hostname]);
  const port = values.get('port')?.[0] ?? '22';
  const tokens: TokenValues = {
    alias,
    hostname,
    port: parsePort(port, 'the ssh config Port'),
    user: values.get('user')?.[0] ?? localAccount().user,
    proxyJump: values.get('proxyjump')?.[0] ?? '',
    ...(values.has('hostkeyalias') ? { hostKeyAlias: values.get('hostkeyalias')![0]! } : {}),
  };
  const userKnownHosts = values.get('userknownhostsfile') ?? ['~/.ssh/known_hosts', '~/.ssh/known_hosts2'];
  if (userKnownHosts[0] !== 'none') values.set('userknownhostsfile', userKnownHosts.map((f) => expandPath(f, tokens, env)));
  const hostKeyAlgorithms = values.get('hostkeyalgorithms')?.[0];
  for (const keyword of ALGORITHM_KEYWORDS) {
    try {
      values.set(keyword, [assembleAlgorithms(keyword, values.get(keyword)?.[0]).join(',')]);
    } catch (err) {
      throw new Error(`ssh config for ${alias}: ${(err as Error).message} Fix ${keyword} in the config (ssh -Q lists the names ssh knows).`);
    }
  }
  if (!values.has('globalknownhostsfile')) values.set('globalknownhostsfile', ['/etc/ssh/ssh_known_hosts', '/etc/ssh/ssh_known_hosts2']);
  // 'none', 'SSH_AUTH_SOCK' and '$VAR' are names, not paths; ssh leaves them for later.
  const agent = values.get('identityagent')?.[0];
  const agentIsName = agent === 'none' || agent === 'SSH_AUTH_SOCK' || (agent?.startsWith('$') && !agent.startsWith('${'));
  if (agent && !agentIsName) values.set('identityagent', [expandPath(agent, tokens, env)]);
  return finish(alias, values, 'builtin', warnings, env, ordersByKnownHosts(hostKeyAlgorithms));
}

/**
 * Resolves a destination (`alias` or `user@alias`) the way `ssh` would: command-line overrides,
 * then the config files, then OpenSSH's defaults.
 */
export async function resolveSshHost(destination: string, overrides: SshOverrides = {}, opts: ResolveOptions = {}): Promise<ResolvedSshHost> {
  if (overrides.port !== undefined) parsePort(String(overrides.port), 'the port option');
  const env = opts.env ?? process.env;
  const evaluator = opts.evaluator ?? 'auto';
  const binary = evaluator === 'builtin' ? undefined : (opts.sshBinary ?? findSshBinary(env));
  if (evaluator === 'openssh' && !binary) throw new Error('no ssh binary found on PATH; install the OpenSSH client or use the built-in config reader');
  return binary ? viaOpenSsh(binary, destination, overrides, env) : viaBuiltin(destination, overrides, env);
}

/**
 * Resolves the whole route to a destination: its ProxyJump hops (outermost first, each resolved
 * from the config like ssh does for `-J`) and then the destination itself, last.
 */
export async function resolveSshRoute(destination: string, overrides: SshOverrides = {}, opts: ResolveOptions = {}): Promise<ResolvedSshHost[]> {
  const target = await resolveSshHost(destination, overrides, opts);
  const hops = async (chain: JumpHostSpec[], depth: number): Promise<ResolvedSshHost[]> => {
    const last = chain[chain.length - 1];
    if (!last) return [];
    if (depth > MAX_JUMP_DEPTH) throw new Error(`the ProxyJump chain to ${destination} is more than ${MAX_JUMP_DEPTH} hops long; check the ssh config for a ProxyJump loop`);
    // ssh reaches the last hop with `-J <the earlier hops>`, so only a single hop uses its own ProxyJump.
    const earlier = chain.slice(0, -1);
    const hop = await resolveSshHost(
      last.host,
      {
        ...(last.user !== undefined ? { user: last.user } : {}),
        ...(last.port !== undefined ? { port: last.port } : {}),
        ...(earlier.length ? { proxyJump: earlier.map(formatJumpHost).join(',') } : {}),
        ...(overrides.configFile !== undefined ? { configFile: overrides.configFile } : {}),
      },
      opts,
    );
    return [...(await hops(hop.proxyJump, depth + 1)), hop];
  };
  return [...(await hops(target.proxyJump, 1)), target];
}

/** Host aliases for the host picker: non-wildcard `Host` names from the user's config and its Includes. */
export function listSshConfigHosts(configFile?: string): string[] {
  return listConfigHostAliases(configFile ?? join(localAccount().home, '.ssh', 'config'));
}
