// Getting a UNIX socket path ready to listen on, the way the kubelet does: the directory must exist,
// a stale socket left by a crashed server is removed, a live one is never stolen; and listening on it
// without a moment in which other users could connect.
import { chmod, lstat, mkdtemp, rename, rm, stat } from 'node:fs/promises';
import { connect } from 'node:net';
import { dirname, join } from 'node:path';

/** Linux limits a UNIX socket path to 107 bytes (sun_path). */
const MAX_SOCKET_PATH_BYTES = 107;
/** What the private staging directory adds to the path: `/.sXXXXXX/p` minus the file name. */
const STAGING_EXTRA_BYTES = 10;

export class SocketPathError extends Error {
  override name = 'SocketPathError';
}

function code(err: unknown): string | undefined {
  return (err as NodeJS.ErrnoException | undefined)?.code;
}

/** Resolves true when something accepts connections on the socket, false when nothing listens. */
function isListening(path: string): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const socket = connect(path);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', (err) => {
      socket.destroy();
      if (code(err) === 'ECONNREFUSED' || code(err) === 'ENOENT') resolve(false);
      else reject(new SocketPathError(`cannot check whether ${path} is in use: ${err.message}`));
    });
  });
}

export async function prepareSocketPath(path: string): Promise<void> {
  const bytes = Buffer.byteLength(path);
  if (bytes + STAGING_EXTRA_BYTES > MAX_SOCKET_PATH_BYTES) {
    throw new SocketPathError(
      `the socket path ${path} is too long (${bytes} bytes): UNIX socket paths are limited to ${MAX_SOCKET_PATH_BYTES} bytes and the simulator needs ${STAGING_EXTRA_BYTES} more while it starts; choose a shorter path`,
    );
  }
  const dir = dirname(path);
  try {
    if (!(await stat(dir)).isDirectory()) {
      throw new SocketPathError(`the socket's directory ${dir} is not a directory; choose a socket path inside a directory`);
    }
  } catch (err) {
    if (err instanceof SocketPathError) throw err;
    if (code(err) === 'ENOENT') {
      throw new SocketPathError(`the socket's directory ${dir} does not exist; create it first (mkdir -p ${dir}) or choose another socket path`);
    }
    throw new SocketPathError(`cannot use the socket's directory ${dir}: ${(err as Error).message}`);
  }
  let existing;
  try {
    existing = await lstat(path);
  } catch (err) {
    if (code(err) === 'ENOENT') return;
    throw new SocketPathError(`cannot check ${path}: ${(err as Error).message}`);
  }
  if (!existing.isSocket()) {
    throw new SocketPathError(`${path} exists and is not a socket; remove it or choose another socket path`);
  }
  if (await isListening(path)) {
    throw new SocketPathError(`${path} is in use by a running server (another simulator or a kubelet); stop it or choose another socket path`);
  }
  // A socket file nobody listens on is left over from a server that did not clean up.
  await rm(path, { force: true });
}

/**
 * Listens at `path` with mode 0600 from the first moment: `listen` binds inside a fresh 0700
 * directory next to it, the socket is made 0600 there, then renamed into place (a listening socket
 * keeps working when renamed). Binding in place and then chmod-ing would leave a window with the
 * umask's permissions.
 */
export async function listenPrivately(path: string, listen: (stagedPath: string) => Promise<void>): Promise<void> {
  const staging = await mkdtemp(join(dirname(path), '.s'));
  try {
    const staged = join(staging, 'p');
    await listen(staged);
    await chmod(staged, 0o600);
    await rename(staged, path);
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}
