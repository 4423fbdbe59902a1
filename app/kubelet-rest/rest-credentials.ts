/**
 * The credential Nodescope shows the kubelet: a bearer token, or a client certificate and key. Each
 * comes from a file on the workstation or a path on the node, read there with `sudo -n cat` (the
 * kubelet's own files are root-only). Contents stay in memory: never in argv, logs or messages.
 */
import { X509Certificate } from 'node:crypto';
import type { NodeChannels } from '../ssh/node-channels';
import { readSmallFile, UnsuitableFileError } from '../fs/read-small-file';
import { RemoteRunError, runRemote, shellQuote } from '../ssh/remote-exec';
import { NodescopeError } from '../util/nodescope-error';

export type SecretSource = { file: string } | { nodePath: string };

/** `node:PATH` is a path on the node; anything else a file here (the CLI's flags and the app's node settings alike). */
export const secretSource = (value: string): SecretSource => (value.startsWith('node:') ? { nodePath: value.slice(5) } : { file: value });

export interface RestCredentialSources {
  token?: SecretSource;
  clientCert?: SecretSource;
  clientKey?: SecretSource;
}

export interface RestCredentials {
  token?: string;
  cert?: string;
  key?: string;
  /** The credential in words for messages, e.g. `bearer token from ~/t` or `client certificate CN=alice from ...`. */
  description?: string;
}

/** A credential that cannot be read or used: the user gives another (a bad setting, hence usage). */
export class CredentialError extends NodescopeError<'CREDENTIAL'> {
  override name = 'CredentialError';
  declare readonly nextStep: string;
  readonly exitClass = 'usage';
  constructor(message: string, nextStep: string) {
    super('CREDENTIAL', message, nextStep);
  }
}

const where = (s: SecretSource) => ('file' in s ? s.file : `${s.nodePath} on the node`);

/** `sudo -n cat -- PATH`: the command sudoers must allow to read a node path as a non-root user. */
export const nodeReadCommand = (path: string) => `sudo -n cat -- ${shellQuote(path)}`;

/** The most a credential or CA file may hold: a certificate chain is a few KiB, a CA bundle a few hundred. */
export const CREDENTIAL_FILE_MAX_BYTES = 1 << 20;

/** A file here that holds a credential or CA, read only when it is a regular file within the limit (read-small-file.ts). */
export async function readCredentialFile(file: string, what: string): Promise<string> {
  try {
    return (await readSmallFile(file, { what: `${what} file`, maxBytes: CREDENTIAL_FILE_MAX_BYTES })).toString('utf8');
  } catch (err) {
    if (err instanceof UnsuitableFileError) throw new CredentialError(`cannot read the ${what} file: ${err.message}`, `Give the path of the ${what} file itself.`);
    throw new CredentialError(`cannot read the ${what} file ${file}: ${(err as Error).message}`, 'Check the path and that you may read it.');
  }
}

async function read(source: SecretSource, what: string, channels: () => Promise<NodeChannels>): Promise<string> {
  if ('file' in source) return readCredentialFile(source.file, what);
  const command = nodeReadCommand(source.nodePath);
  let r;
  try {
    // `cat` of a device (/dev/zero) never ends, and of a FIFO waits for a writer: both are bounded.
    r = await runRemote(await channels(), command, { maxStdoutBytes: CREDENTIAL_FILE_MAX_BYTES });
  } catch (err) {
    if (!(err instanceof RemoteRunError)) throw err;
    throw new CredentialError(
      err.code === 'TOO_MUCH_OUTPUT'
        ? `the ${what} at ${source.nodePath} on the node is larger than ${CREDENTIAL_FILE_MAX_BYTES / (1 << 20)} MiB, which no ${what} is; it was not read whole`
        : `reading the ${what} at ${source.nodePath} on the node with \`${command}\` did not finish: ${err.message}`,
      `Check that ${source.nodePath} is the ${what} file itself, not a device or a FIFO (ls -l on the node).`,
    );
  }
  if (r.code !== 0) {
    throw new CredentialError(`cannot read the ${what} at ${source.nodePath} on the node: ${r.stderr.trim() || `exit code ${r.code}`}`,
      `Check the path; as a non-root user, sudoers must allow \`${command}\`.`);
  }
  return r.stdout;
}

export function validateSources(s: RestCredentialSources): void {
  if (s.token && (s.clientCert || s.clientKey)) throw new CredentialError('give a bearer token or a client certificate, not both', 'Pick one credential.');
  if (!s.clientCert !== !s.clientKey) throw new CredentialError('a client certificate needs its key, and a key its certificate', 'Give both --client-cert and --client-key.');
}

export async function loadRestCredentials(s: RestCredentialSources, channels: () => Promise<NodeChannels>): Promise<RestCredentials> {
  validateSources(s);
  if (s.token) {
    const token = (await read(s.token, 'token', channels)).trim();
    if (!token || /\s/.test(token)) throw new CredentialError(`the token at ${where(s.token)} is ${token ? 'not one word' : 'empty'}`, 'A bearer token file holds the token alone, e.g. from `kubectl create token NAME`.');
    return { token, description: `bearer token from ${where(s.token)}` };
  }
  if (s.clientCert && s.clientKey) {
    const cert = await read(s.clientCert, 'client certificate', channels);
    const key = await read(s.clientKey, 'client key', channels);
    let subject: string;
    try {
      subject = new X509Certificate(cert).subject.split('\n').find((l) => l.startsWith('CN=')) ?? 'without a CN';
    } catch (err) {
      throw new CredentialError(`the client certificate at ${where(s.clientCert)} is not a PEM certificate: ${(err as Error).message}`, 'Give the PEM file of the certificate (-----BEGIN CERTIFICATE-----).');
    }
    return { cert, key, description: `client certificate ${subject} from ${where(s.clientCert)}` };
  }
  return {};
}
