/**
 * Log files on a node, read over SSH with fixed commands: `ls -1A`, `stat` and a ranged `dd`, each with
 * `sudo -n` in front when the files are root-only. sshd runs a command through the login shell, so every
 * argument is quoted as one word; the paths themselves are built only from names pod-log-layout.ts checked.
 * Only the bytes asked for cross the link: a tail moves a few chunks from the end, never the file.
 */
import { OPEN_CONNECT_FAILED, type ChannelOpenError, type ExecChannel, type NodeChannels } from '../ssh/node-channels';
import { RemoteRunError, runRemote, shellQuote } from '../ssh/remote-exec';
import { LogAccessError, type LogFileAccess } from './log-file-access';

export interface NodeFileAccessOptions {
  /** The node, for messages. */
  node: string;
  /** Prefix every command with `sudo -n` (the runtimes write logs root-only). */
  sudo: boolean;
  /** Told each command line before it runs, for -v: every command run on the node is shown. */
  announce?: (command: string) => void;
}

/** The command line that runs `argv` on the node, each word quoted for the remote shell. */
export function nodeCommand(argv: string[], sudo: boolean): string {
  for (const a of argv) if (/[\0\n]/.test(a)) throw new LogAccessError(`refusing a command argument with a NUL or newline: ${JSON.stringify(a)}`, 'This is a bug in Nodescope: please report it.');
  return `${sudo ? 'sudo -n ' : ''}${argv.map(shellQuote).join(' ')}`;
}

const checkPath = (p: string) => {
  if (!p.startsWith('/') || p.split('/').includes('..')) throw new LogAccessError(`refusing the node path ${JSON.stringify(p)}`, 'Paths on the node are absolute, without .. parts.');
  return p;
};

/** How long a command waits in all for sshd to take one more session on the connection. */
const SESSION_WAIT_MS = 10_000;

/**
 * Starts a command. sshd refuses a session past its MaxSessions (10 by default) on one connection, which
 * followers polling together reach: their commands are short, so the refusal is waited out.
 */
async function execWaiting(channels: NodeChannels, command: string, where: string): Promise<ExecChannel> {
  for (let waited = 0, delay = 10; ; waited += delay, delay = Math.min(delay * 2, 500)) {
    try {
      return await channels.exec(command);
    } catch (err) {
      // sshd refuses a session it has no room for as "open failed" (connect failed): for a session, nothing else.
      if ((err as ChannelOpenError).reason !== OPEN_CONNECT_FAILED) throw err;
      if (waited >= SESSION_WAIT_MS) {
        throw new LogAccessError(`sshd on ${where} took no more sessions on the connection for ${SESSION_WAIT_MS / 1000} s (its MaxSessions)`, 'Follow fewer logs of this node at once, or raise MaxSessions in sshd_config on the node.');
      }
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}

export function nodeFileAccess(channels: () => Promise<NodeChannels>, options: NodeFileAccessOptions): LogFileAccess {
  const where = `node ${options.node}`;
  const failure = (what: string, stderr: string, code: number | null, command: string): LogAccessError => {
    const text = stderr.trim() || (code === null ? 'the command ended without an exit status (killed by a signal, or the connection dropped)' : `exit code ${code}`);
    if (/permission denied/i.test(text)) {
      return new LogAccessError(`not allowed to ${what} on ${where}: ${text}`, options.sudo ? `sudoers must allow \`${command}\` without a password for this user.` : 'Container logs are root-only: log in as root, or add --sudo (sudo -n).', 'PERMISSION');
    }
    if (/a password is required|a terminal is required|not in the sudoers|may not run sudo/i.test(text)) {
      return new LogAccessError(`sudo refused to ${what} on ${where}: ${text}`, `sudoers must allow \`${command}\` without a password for this user.`, 'PERMISSION');
    }
    return new LogAccessError(`cannot ${what} on ${where}: ${text}`, `Run \`${command}\` on the node to see why.`);
  };
  const run = async (argv: string[], what: string) => {
    const command = nodeCommand(argv, options.sudo);
    options.announce?.(command);
    try {
      const ch = await channels();
      return { command, ...(await runRemote({ ...ch, exec: (c) => execWaiting(ch, c, where) }, command, { maxStdoutBytes: 16 << 20 })) };
    } catch (err) {
      if (err instanceof RemoteRunError) throw new LogAccessError(`cannot ${what} on ${where}: ${err.message}`, `Run \`${command}\` on the node to see why.`);
      throw err;
    }
  };
  const missing = (stderr: string) => /no such file or directory/i.test(stderr);
  return {
    where,
    async list(dir) {
      const r = await run(['ls', '-1A', '--', checkPath(dir)], `list ${dir}`);
      if (r.code === 0) return r.stdout.split('\n').filter((n) => n.length);
      if (missing(r.stderr)) return undefined;
      throw failure(`list ${dir}`, r.stderr, r.code, r.command);
    },
    async stat(path) {
      const r = await run(['stat', '-L', '-c', '%s %d:%i', '--', checkPath(path)], `stat ${path}`);
      if (r.code === 0) {
        const [size, identity] = r.stdout.trim().split(' ');
        if (size !== undefined && /^\d+$/.test(size) && identity) return { size: Number(size), identity };
        throw new LogAccessError(`unexpected output from stat on ${where}: ${JSON.stringify(r.stdout.slice(0, 80))}`, 'The node needs GNU or BusyBox stat (stat -c).');
      }
      if (missing(r.stderr)) return undefined;
      throw failure(`stat ${path}`, r.stderr, r.code, r.command);
    },
    async *read(path, offset, length) {
      if (length <= 0) return;
      // dd reads exactly the range (GNU and BusyBox both know skip_bytes/count_bytes); tail -c would need a pipe.
      const argv = ['dd', `if=${checkPath(path)}`, 'iflag=skip_bytes,count_bytes', `skip=${offset}`, `count=${length}`, 'bs=65536', 'status=none'];
      const command = nodeCommand(argv, options.sudo);
      options.announce?.(command);
      const ch = await execWaiting(await channels(), command, where);
      let stderr = '';
      ch.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      // The exit status may come after the data ends: wait for the channel to close before judging it.
      const closed = new Promise<void>((resolve) => ch.once('close', () => resolve()));
      ch.end();
      try {
        yield* ch as AsyncIterable<Buffer>;
        await closed;
      } finally {
        ch.close();
      }
      const code = await ch.exit;
      if (code !== 0) throw failure(`read ${path}`, stderr, code, command);
    },
  };
}
