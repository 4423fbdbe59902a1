import { createRequire } from 'node:module';
import type Ssh2Constants from 'ssh2/lib/protocol/constants.js';
import { matchPattern } from './ssh-config-parser';
import { unsupportedBySsh2 } from './config-refusals';

/**
 * ssh2's tables, loaded when first asked (connecting): its constants module loads its crypto binding and
 * cpu-features, which a command on a local socket or a file never needs (cli-start.test.ts).
 */
let constants: typeof Ssh2Constants | undefined;
const ssh2Constants = (): typeof Ssh2Constants =>
  (constants ??= createRequire(import.meta.url)('ssh2/lib/protocol/constants.js') as typeof Ssh2Constants);

/**
 * The algorithm lists of ssh_config (HostKeyAlgorithms, KexAlgorithms, Ciphers, MACs,
 * PubkeyAcceptedAlgorithms) as OpenSSH resolves them, and what the built-in (ssh2) transport may
 * then offer: only what is in both, in OpenSSH's order, so it never negotiates anything ssh
 * would not (ssh2's own defaults include SHA-1 `ssh-rsa` host key signatures, which ssh 8.8+ refuses).
 */

export type AlgorithmKeyword = 'hostkeyalgorithms' | 'kexalgorithms' | 'ciphers' | 'macs' | 'pubkeyacceptedalgorithms';

/** As `ssh -G` prints them: comma-separated names, modifiers applied. */
export type OpenSshAlgorithms = Record<AlgorithmKeyword, string[]>;

const KEY_ALGORITHMS = [
  'ssh-ed25519', 'ssh-ed25519-cert-v01@openssh.com', 'sk-ssh-ed25519@openssh.com', 'sk-ssh-ed25519-cert-v01@openssh.com',
  'ecdsa-sha2-nistp256', 'ecdsa-sha2-nistp256-cert-v01@openssh.com', 'ecdsa-sha2-nistp384', 'ecdsa-sha2-nistp384-cert-v01@openssh.com',
  'ecdsa-sha2-nistp521', 'ecdsa-sha2-nistp521-cert-v01@openssh.com', 'sk-ecdsa-sha2-nistp256@openssh.com',
  'sk-ecdsa-sha2-nistp256-cert-v01@openssh.com', 'webauthn-sk-ecdsa-sha2-nistp256@openssh.com', 'ssh-dss', 'ssh-dss-cert-v01@openssh.com',
  'ssh-rsa', 'ssh-rsa-cert-v01@openssh.com', 'rsa-sha2-256', 'rsa-sha2-256-cert-v01@openssh.com', 'rsa-sha2-512', 'rsa-sha2-512-cert-v01@openssh.com',
];
const DEFAULT_KEY_ALGORITHMS = [
  'ssh-ed25519-cert-v01@openssh.com', 'ecdsa-sha2-nistp256-cert-v01@openssh.com', 'ecdsa-sha2-nistp384-cert-v01@openssh.com',
  'ecdsa-sha2-nistp521-cert-v01@openssh.com', 'sk-ssh-ed25519-cert-v01@openssh.com', 'sk-ecdsa-sha2-nistp256-cert-v01@openssh.com',
  'rsa-sha2-512-cert-v01@openssh.com', 'rsa-sha2-256-cert-v01@openssh.com', 'ssh-ed25519', 'ecdsa-sha2-nistp256', 'ecdsa-sha2-nistp384',
  'ecdsa-sha2-nistp521', 'sk-ssh-ed25519@openssh.com', 'sk-ecdsa-sha2-nistp256@openssh.com', 'rsa-sha2-512', 'rsa-sha2-256',
];

interface KeywordRules {
  /** OpenSSH 9.2's default (`ssh -G -F /dev/null`). */
  defaults: string[];
  /** Every name OpenSSH 9.2 knows (`ssh -Q`): what `+` and `^` may add and patterns expand to. */
  all: string[];
  /** Key algorithm lists take `*` and `?` patterns; the others only exact names. */
  patterns: boolean;
  /** ssh's words for a bad list. */
  bad: string;
  /** The names ssh2 implements. */
  ssh2: () => readonly string[];
}

const RULES: Record<AlgorithmKeyword, KeywordRules> = {
  hostkeyalgorithms: { defaults: DEFAULT_KEY_ALGORITHMS, all: KEY_ALGORITHMS, patterns: true, bad: 'Bad key types', ssh2: () => ssh2Constants().SUPPORTED_SERVER_HOST_KEY },
  pubkeyacceptedalgorithms: { defaults: DEFAULT_KEY_ALGORITHMS, all: KEY_ALGORITHMS, patterns: true, bad: 'Bad key types', ssh2: () => ssh2Constants().SUPPORTED_SERVER_HOST_KEY },
  kexalgorithms: {
    defaults: [
      'sntrup761x25519-sha512', 'sntrup761x25519-sha512@openssh.com', 'curve25519-sha256', 'curve25519-sha256@libssh.org', 'ecdh-sha2-nistp256',
      'ecdh-sha2-nistp384', 'ecdh-sha2-nistp521', 'diffie-hellman-group-exchange-sha256', 'diffie-hellman-group16-sha512',
      'diffie-hellman-group18-sha512', 'diffie-hellman-group14-sha256',
    ],
    all: [
      'diffie-hellman-group1-sha1', 'diffie-hellman-group14-sha1', 'diffie-hellman-group14-sha256', 'diffie-hellman-group16-sha512',
      'diffie-hellman-group18-sha512', 'diffie-hellman-group-exchange-sha1', 'diffie-hellman-group-exchange-sha256', 'ecdh-sha2-nistp256',
      'ecdh-sha2-nistp384', 'ecdh-sha2-nistp521', 'curve25519-sha256', 'curve25519-sha256@libssh.org', 'sntrup761x25519-sha512',
      'sntrup761x25519-sha512@openssh.com',
    ],
    patterns: false,
    bad: 'Bad SSH2 KexAlgorithms',
    ssh2: () => ssh2Constants().SUPPORTED_KEX,
  },
  ciphers: {
    defaults: ['chacha20-poly1305@openssh.com', 'aes128-ctr', 'aes192-ctr', 'aes256-ctr', 'aes128-gcm@openssh.com', 'aes256-gcm@openssh.com'],
    all: [
      '3des-cbc', 'aes128-cbc', 'aes192-cbc', 'aes256-cbc', 'aes128-ctr', 'aes192-ctr', 'aes256-ctr', 'aes128-gcm@openssh.com',
      'aes256-gcm@openssh.com', 'chacha20-poly1305@openssh.com',
    ],
    patterns: false,
    bad: 'Bad SSH2 cipher spec',
    ssh2: () => ssh2Constants().SUPPORTED_CIPHER,
  },
  macs: {
    defaults: [
      'umac-64-etm@openssh.com', 'umac-128-etm@openssh.com', 'hmac-sha2-256-etm@openssh.com', 'hmac-sha2-512-etm@openssh.com',
      'hmac-sha1-etm@openssh.com', 'umac-64@openssh.com', 'umac-128@openssh.com', 'hmac-sha2-256', 'hmac-sha2-512', 'hmac-sha1',
    ],
    all: [
      'hmac-sha1', 'hmac-sha1-96', 'hmac-sha2-256', 'hmac-sha2-512', 'hmac-md5', 'hmac-md5-96', 'umac-64@openssh.com', 'umac-128@openssh.com',
      'hmac-sha1-etm@openssh.com', 'hmac-sha1-96-etm@openssh.com', 'hmac-sha2-256-etm@openssh.com', 'hmac-sha2-512-etm@openssh.com',
      'hmac-md5-etm@openssh.com', 'hmac-md5-96-etm@openssh.com', 'umac-64-etm@openssh.com', 'umac-128-etm@openssh.com',
    ],
    patterns: false,
    bad: 'Bad SSH2 MAC spec',
    ssh2: () => ssh2Constants().SUPPORTED_MAC,
  },
};

export const ALGORITHM_KEYWORDS = Object.keys(RULES) as AlgorithmKeyword[];

/** The ssh_config spelling, for messages. */
const KEYWORD_NAMES: Record<AlgorithmKeyword, string> = {
  hostkeyalgorithms: 'HostKeyAlgorithms',
  kexalgorithms: 'KexAlgorithms',
  ciphers: 'Ciphers',
  macs: 'MACs',
  pubkeyacceptedalgorithms: 'PubkeyAcceptedAlgorithms',
};

const matching = (rules: KeywordRules, pattern: string) =>
  rules.patterns ? rules.all.filter((a) => matchPattern(a, pattern)) : rules.all.filter((a) => a === pattern);

/**
 * OpenSSH's kex_assemble_names for a configured value: `+list` appends to the default, `-list`
 * removes (patterns allowed), `^list` puts first, a plain list replaces it; then unknown names and
 * duplicates go and patterns expand. Throws ssh's own complaint for a name it does not know.
 */
export function assembleAlgorithms(keyword: AlgorithmKeyword, value: string | undefined): string[] {
  const rules = RULES[keyword];
  if (value === undefined) return [...rules.defaults];
  const modifier = /^[+\-^]/.test(value) ? value[0]! : '';
  const names = value.slice(modifier.length).split(',');
  if (modifier === '-') return rules.defaults.filter((a) => !names.some((p) => matchPattern(a, p)));
  if (names.some((n) => matching(rules, n).length === 0)) throw new Error(`${rules.bad} '${value}'.`);
  const ordered = modifier === '+' ? [...rules.defaults, ...names] : modifier === '^' ? [...names, ...rules.defaults] : names;
  return [...new Set(ordered.flatMap((n) => matching(rules, n)))];
}

/**
 * ssh puts the known host's key types first when HostKeyAlgorithms is unset or only appends to or
 * removes from the default (`+`, `-`), never for `^` or a list of its own (checked with ssh 9.2).
 */
export const ordersByKnownHosts = (configured: string | undefined) => configured === undefined || /^[+-]/.test(configured);

/** The same, judged from a resolved list alone: only the default itself is sure to be reordered. */
export const isDefaultHostKeyAlgorithms = (list: readonly string[]) => list.join(',') === DEFAULT_KEY_ALGORITHMS.join(',');

/** What openSshConnection passes to ssh2 for one hop. */
export interface HopAlgorithms {
  serverHostKey: string[];
  /** As ssh: put the known host key types first (only with the default HostKeyAlgorithms). */
  preferKnownHostKeys: boolean;
  kex: string[];
  cipher: string[];
  hmac: string[];
}

/**
 * The ssh2 lists for a host whose ssh_config resolved to `lists`: OpenSSH's choice less what ssh2
 * lacks. A keyword that leaves nothing is refused, naming it, rather than connecting with
 * algorithms the user did not allow.
 */
export function hopAlgorithms(lists: OpenSshAlgorithms, host: string, preferKnownHostKeys: boolean): HopAlgorithms {
  const usable = (keyword: AlgorithmKeyword) => {
    const ssh2 = RULES[keyword].ssh2();
    const both = lists[keyword].filter((a) => ssh2.includes(a));
    if (both.length === 0) {
      throw unsupportedBySsh2(host, KEYWORD_NAMES[keyword],
        `it allows only ${lists[keyword].join(',') || 'nothing'}, and the built-in transport implements none of these (it has ${ssh2.join(',')})`);
    }
    return both;
  };
  return {
    serverHostKey: usable('hostkeyalgorithms'),
    preferKnownHostKeys,
    kex: usable('kexalgorithms'),
    cipher: usable('ciphers'),
    hmac: usable('macs'),
  };
}

let defaults: HopAlgorithms | undefined;
/** For a hop built without ssh_config: OpenSSH's defaults (made when first asked: they need ssh2's tables). */
export const defaultHopAlgorithms = (): HopAlgorithms =>
  (defaults ??= hopAlgorithms(Object.fromEntries(ALGORITHM_KEYWORDS.map((k) => [k, RULES[k].defaults])) as OpenSshAlgorithms, 'any host', true));
