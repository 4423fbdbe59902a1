import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { mkdir, realpath } from 'node:fs/promises';
import { dirname } from 'node:path';
import { writeFileAtomic } from '../fs/atomic-file';
import { readSmallFile, UnsuitableFileError, type SmallFileLimit } from '../fs/read-small-file';
import { SshError } from './ssh-errors';
import { fingerprintSha256, keyTypeOfBlob } from './host-key-fingerprint';

/** One usable line of a known_hosts file, with where it came from so messages can point at it. */
export interface KnownHostEntry {
  file: string;
  line: number;
  marker?: '@revoked' | '@cert-authority';
  /** The host field: comma-separated patterns, or one hashed `|1|salt|hmac` name. */
  hosts: string;
  /** Key type taken from the key itself (the text field can disagree on hand-edited lines). */
  keyType: string;
  key: Buffer;
}

/** Where a stored key lives, for "fix line N of FILE" messages. */
export interface StoredKey {
  keyType: string;
  fingerprint: string;
  file: string;
  line: number;
}

export type KnownHostsResult =
  | { status: 'known'; entry: StoredKey }
  /** `certAuthorities`: @cert-authority lines that match the host. */
  | { status: 'unknown'; certAuthorities: StoredKey[] }
  | { status: 'changed'; stored: StoredKey }
  | { status: 'revoked'; entry: StoredKey };

/** The name OpenSSH looks up and writes: `host` on port 22, `[host]:port` otherwise; lower case. */
export function knownHostsName(host: string, port: number): string {
  const h = host.toLowerCase();
  return port === 22 ? h : `[${h}]:${port}`;
}

/** Parses known_hosts text; malformed lines are skipped, as OpenSSH does. */
export function parseKnownHosts(text: string, file: string): KnownHostEntry[] {
  const entries: KnownHostEntry[] = [];
  text.split('\n').forEach((raw, index) => {
    const fields = raw.trim().split(/[ \t]+/);
    if (!fields[0] || fields[0].startsWith('#')) return;
    let marker: KnownHostEntry['marker'];
    if (fields[0].startsWith('@')) {
      if (fields[0] !== '@revoked' && fields[0] !== '@cert-authority') return;
      marker = fields.shift() as KnownHostEntry['marker'];
    }
    const [hosts, , base64] = fields;
    if (!hosts || !base64) return;
    const key = Buffer.from(base64, 'base64');
    let keyType: string;
    try {
      keyType = keyTypeOfBlob(key);
    } catch {
      return;
    }
    entries.push({ file, line: index + 1, ...(marker ? { marker } : {}), hosts, keyType, key });
  });
  return entries;
}

/** OpenSSH's match_pattern: `*` any run, `?` one character, everything else literal. */
function globMatches(pattern: string, name: string): boolean {
  const re = pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.');
  return new RegExp(`^${re}$`, 's').test(name);
}

function hashedNameMatches(field: string, name: string): boolean {
  const [, magic, salt, hash] = field.split('|');
  if (magic !== '1' || !salt || !hash) return false;
  const want = Buffer.from(hash, 'base64');
  const got = createHmac('sha1', Buffer.from(salt, 'base64')).update(name).digest();
  return want.length === got.length && timingSafeEqual(want, got);
}

/**
 * Whether a host field names `name` (from knownHostsName): a hashed name, or a pattern list where
 * any `!pattern` hit vetoes the line and otherwise one positive hit is needed. Case-insensitive.
 */
export function hostFieldMatches(field: string, name: string): boolean {
  if (field.startsWith('|')) return hashedNameMatches(field, name.toLowerCase());
  const lower = name.toLowerCase();
  let matched = false;
  for (const pattern of field.toLowerCase().split(',')) {
    if (pattern.startsWith('!')) {
      if (globMatches(pattern.slice(1), lower)) return false;
    } else if (globMatches(pattern, lower)) {
      matched = true;
    }
  }
  return matched;
}

function stored(entry: KnownHostEntry): StoredKey {
  return { keyType: entry.keyType, fingerprint: fingerprintSha256(entry.key), file: entry.file, line: entry.line };
}

/**
 * Decides as OpenSSH does: a matching @revoked key refuses; any line with this exact key accepts;
 * a line with any other key for the host means the key changed, even one of another type (ssh 9
 * says REMOTE HOST IDENTIFICATION HAS CHANGED when it knows only an RSA key and gets an ed25519
 * one: a man in the middle must not get a first-contact question); otherwise it is unknown.
 */
export function checkKnownHosts(entries: readonly KnownHostEntry[], name: string, blob: Buffer): KnownHostsResult {
  const forHost = entries.filter((e) => hostFieldMatches(e.hosts, name));
  const revoked = forHost.find((e) => e.marker === '@revoked' && e.key.equals(blob));
  if (revoked) return { status: 'revoked', entry: stored(revoked) };
  const plain = forHost.filter((e) => !e.marker);
  const same = plain.find((e) => e.key.equals(blob));
  if (same) return { status: 'known', entry: stored(same) };
  const type = keyTypeOfBlob(blob);
  // The same type's key first: that is the one ssh names as "Offending".
  const offending = plain.find((e) => e.keyType === type) ?? plain[0];
  if (offending) return { status: 'changed', stored: stored(offending) };
  return {
    status: 'unknown',
    certAuthorities: forHost.filter((e) => e.marker === '@cert-authority').map(stored),
  };
}

/** Large fleets' known_hosts files run to megabytes; one beyond this is not a known_hosts file. */
const KNOWN_HOSTS_FILE: SmallFileLimit = { what: 'known_hosts file', maxBytes: 64 << 20 };

const readKnownHostsText = async (file: string) => (await readSmallFile(file, KNOWN_HOSTS_FILE)).toString('utf8');

/**
 * Reads and parses the files in order; a missing file is simply empty, other read errors are reported
 * as LOCAL_FILE errors, which waiting does not fix.
 */
export async function readKnownHosts(files: readonly string[]): Promise<KnownHostEntry[]> {
  const parsed = await Promise.all(
    files.map(async (file) => {
      try {
        return parseKnownHosts(await readKnownHostsText(file), file);
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code === 'ENOENT' || code === 'ENOTDIR') return [];
        if (err instanceof UnsuitableFileError) {
          throw new SshError('LOCAL_FILE', err.message, 'Point UserKnownHostsFile (or --known-hosts) at a regular known_hosts file.', err);
        }
        throw new SshError('LOCAL_FILE', `cannot read known_hosts file ${file}: ${(err as Error).message}`,
          'Fix its permissions or remove it from UserKnownHostsFile.', err);
      }
    }),
  );
  return parsed.flat();
}

/** A new salted `|1|salt|hmac` name, as `HashKnownHosts yes` writes it. */
export function hashKnownHostsName(name: string, salt: Buffer = randomBytes(20)): string {
  const hmac = createHmac('sha1', salt).update(name).digest();
  return `|1|${salt.toString('base64')}|${hmac.toString('base64')}`;
}

/** Appends in flight per file: a read-modify-rename must not overlap another in this process, or one line is lost. */
const pendingWrites = new Map<string, Promise<void>>();

/**
 * Appends a line for host:port to `file`, replacing the file atomically. A missing file is created
 * 0600 in a 0700 directory; an existing one keeps its mode, and a symlinked one is written through.
 */
export async function rememberHostKey(file: string, host: string, port: number, blob: Buffer, opts: { hash: boolean }): Promise<void> {
  const name = knownHostsName(host, port);
  const line = `${opts.hash ? hashKnownHostsName(name) : name} ${keyTypeOfBlob(blob)} ${blob.toString('base64')}\n`;
  const target = await realpath(file).catch(() => file);
  const previous = pendingWrites.get(target) ?? Promise.resolve();
  const write = previous.catch(() => undefined).then(() => appendLine(file, target, line));
  pendingWrites.set(target, write);
  try {
    await write;
  } finally {
    if (pendingWrites.get(target) === write) pendingWrites.delete(target);
  }
}

async function appendLine(file: string, target: string, line: string): Promise<void> {
  const existing = await readKnownHostsText(target).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return undefined;
    throw new Error(err instanceof UnsuitableFileError ? err.message : `cannot update known_hosts file ${file}: ${err.message}`);
  });
  if (existing === undefined) await mkdir(dirname(target), { recursive: true, mode: 0o700 });
  const prefix = existing === undefined || existing === '' || existing.endsWith('\n') ? (existing ?? '') : `${existing}\n`;
  // A new known_hosts is private; an existing one keeps its permissions (writeFileAtomic's rule).
  await writeFileAtomic(target, prefix + line);
}
