/**
 * Pinned kubelet serving certificates, the TLS counterpart of known_hosts: one line per kubelet,
 * `NAME SHA256-FINGERPRINT`, where NAME is `host:port` as the user named the node. Kept beside
 * known_hosts in the state directory, written atomically (0600 when new), one writer at a time.
 */
import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { writeFileAtomic } from '../fs/atomic-file';
import { readSmallFile, UnsuitableFileError, type SmallFileLimit } from '../fs/read-small-file';
import { KubeletError } from '../kubelet/kubelet-error';

export const PINS_FILE_NAME = 'kubelet_certificates';

export const defaultPinsFile = (stateDir: string) => join(stateDir, PINS_FILE_NAME);

export interface StoredPin {
  fingerprint: string;
  file: string;
  line: number;
}

export type PinResult = { status: 'known' } | { status: 'unknown' } | { status: 'changed'; stored: StoredPin };

/** As the node list: a line per kubelet is ~100 bytes, so this is far more kubelets than anyone pins. */
const PINS_FILE: SmallFileLimit = { what: 'kubelet certificate pins file', maxBytes: 16 << 20 };

/**
 * The pins file's text, undefined when it does not exist. A FIFO, a device or a file past the limit is refused
 * (a FIFO would hang the connection, /dev/zero fill memory) as a TLS failure: certificates cannot be checked.
 */
async function readPinsText(file: string, doing: string): Promise<string | undefined> {
  try {
    return (await readSmallFile(file, PINS_FILE)).toString('utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    const nextStep = err instanceof UnsuitableFileError ? 'Give --kubelet-pins the path of a regular file, or leave it out for the default.' : 'Fix its permissions, or move it away to start afresh.';
    throw new KubeletError('TLS', `cannot ${doing} the kubelet certificate pins in ${file}: ${(err as Error).message}`, nextStep, { cause: err });
  }
}

const FINGERPRINT = /^([0-9A-F]{2}:){31}[0-9A-F]{2}$/;

/** The pins file's line name for a kubelet. */
export const pinName = (host: string, port: number) => `${host.toLowerCase()}:${port}`;

async function readPins(file: string): Promise<{ name: string; fingerprint: string; line: number }[]> {
  const text = (await readPinsText(file, 'read')) ?? '';
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
    const existing = await readPinsText(file, 'update');
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
