/**
 * The kinds of source a `nodescope` command's SOURCE can name, registered by scheme as grpc-js registers
 * its resolvers (README, "Sources"): each kind says whether an argument is its own, schemes first, and
 * one kind (an SSH destination) takes what no other does. A new kind the CLI can name is one entry here.
 */
import { existsSync, statSync } from 'node:fs';
import { UsageError } from '../cli/usage-error';
import { UNIX_SCHEME } from './kinds/unix-kind';
import { SSH_SCHEME } from './ssh-destination';

/** What a SOURCE argument names: an SSH destination, a socket on this machine, or a pod file (snapshot or recording). */
export type SourceArgument = { kind: 'ssh'; host: string } | { kind: 'socket'; path: string } | { kind: 'file'; path: string };

interface ArgumentKind {
  /** Its scheme, when the argument spells one (`unix:`, `ssh://`). */
  scheme?: string;
  /** The argument as this kind, or undefined when it is not one. */
  parse(arg: string): SourceArgument | undefined;
}

/** Extensions Nodescope writes or reads pod files with. */
export const POD_FILE_EXTENSIONS = ['.json', '.ndjson', '.jsonl', '.yaml', '.yml', '.pb', '.bin', '.protobuf', '.recording'];

const UNIX: ArgumentKind = {
  scheme: UNIX_SCHEME,
  parse(arg) {
    // unix:///PATH as grpc-js spells it, or unix:PATH.
    const path = arg.slice(UNIX_SCHEME.length).replace(/^\/\/(?=\/)/, '');
    if (!path.startsWith('/')) throw new UsageError(`unix: needs an absolute socket path, e.g. unix:/run/pods.sock, got '${arg}'`);
    return { kind: 'socket', path };
  },
};

/** Docker's ssh://[user@]host[:port]; resolved with ssh_config like any destination (ssh-destination.ts). */
const SSH_URL: ArgumentKind = { scheme: SSH_SCHEME, parse: (arg) => ({ kind: 'ssh', host: arg }) };

/**
 * A pod file: anything containing '/', ending in a pod file extension, or that exists here as a file, since an
 * SSH destination (host, user@host, ssh_config alias) has none of these.
 */
const FILE: ArgumentKind = {
  parse(arg) {
    const lower = arg.toLowerCase();
    if (arg.includes('/') || POD_FILE_EXTENSIONS.some((ext) => lower.endsWith(ext))) return { kind: 'file', path: arg };
    if (existsSync(arg) && statSync(arg).isFile()) return { kind: 'file', path: arg };
    return undefined;
  },
};

/** Schemes first, then what has no scheme; an SSH destination takes the rest. */
const ARGUMENT_KINDS: readonly ArgumentKind[] = [UNIX, SSH_URL, FILE];

/** What a SOURCE argument names; `local` (--local PATH) is a socket on this machine whatever the argument. */
export function parseSourceArgument(arg: string, local?: string): SourceArgument {
  if (local !== undefined) return { kind: 'socket', path: local };
  for (const kind of ARGUMENT_KINDS) {
    if (kind.scheme !== undefined && !arg.startsWith(kind.scheme)) continue;
    const parsed = kind.parse(arg);
    if (parsed) return parsed;
  }
  return { kind: 'ssh', host: arg };
}
