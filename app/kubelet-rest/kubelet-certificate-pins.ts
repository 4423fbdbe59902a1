/**
 * Pinned kubelet serving certificates, the TLS counterpart of known_hosts: one line per kubelet,
 * `NAME SHA256-FINGERPRINT`, where NAME is `host:port` as the user named the node. Kept beside
 * known_hosts in the state directory, written atomically (0600 when new), one writer at a time.
 */
import { mkdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { writeFileAtomic } from '../fs/atomic-file';

export const PINS_FILE_NAME = 'kubelet_certificates';

export const defaultPinsFile = (stateDir: string) => join(stateDir, PINS_FILE_NAME);

export interface StoredPin {
  fingerprint: string;
  file: string;
  line: number;
}

export type PinResult = { status: 'known' } | { status: 'unknown' } | { status: 'changed'; stored: StoredPin };

const FINGERPRINT = /^([0-9A-F]{2}:){31}[0-9A-F]{2}$/;

/** The pins file's line name for a kubelet. */
export const pinName = (host: string, port: number) => `${host.toLowerCase()}:${port}`;

async function readPins(file: string): Promise<{ name: string; fingerprint: string; line: number }[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw new Error(`cannot read the kubelet certificate pins in ${file}: ${(err as Error).message}. Fix its permissions, or move it away to start afresh.`);
  }
  return text.split('\n').flatMap((raw, i) => {
    const [name, fingerprint] = raw.trim().split(/\s+/);
    return name && fingerprint && !name.startsWith('#') && FINGERPRINT.test(fingerprint) ? [{ name, fingerprint, line: i + 1 }] : [];
  });
}

export async function checkPin(file: string, name: string, fingerprint: string): Promise<PinResult> {
  const pins = (await readPins(file)).filter((p) => p.name === name);
  if (pins.some((p) => p.fingerprint === fingerprint)) return { status: 'known' };
  const stored = pins[0];
  return stored ? { status: 'changed', stored: { fingerprint: stored.fingerprint, file, line: stored.line } } : { status: 'unknown' };
}

const pending = new Map<string, Promise<void>>();

/** Adds a pin; a stale pin for the same name is replaced only by an explicit `replace` (never here). */
export async function rememberPin(file: string, name: string, fingerprint: string): Promise<void> {
  const previous = pending.get(file) ?? Promise.resolve();
  const write = previous.catch(() => undefined).then(async () => {
    const existing = await readFile(file, 'utf8').catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return undefined;
      throw new Error(`cannot update the kubelet certificate pins in ${file}: ${err.message}`);
    });
    if (existing === undefined) await mkdir(dirname(file), { recursive: true, mode: 0o700 });
    const prefix = !existing ? '' : existing.endsWith('\n') ? existing : `${existing}\n`;
    await writeFileAtomic(file, `${prefix}${name} ${fingerprint}\n`);
  });
  pending.set(file, write);
  try {
    await write;
  } finally {
    if (pending.get(file) === write) pending.delete(file);
  }
}
