import type { ChildProcess } from 'node:child_process';
import { connect } from 'node:net';
import { Duplex, type Readable, type Writable } from 'node:stream';
import { OPEN_CONNECT_FAILED, type ChannelOpenError, type ExecChannel, type NodeChannels } from '../node-channels';
import { createPrivateSocketDir, type PrivateSocketDir } from '../private-socket-dir';
import type { SocketProbe } from '../remote-socket-probe';
import type { SshError } from '../ssh-errors';
import type { ControlMaster } from './control-master';
import { runSsh, spawnSsh, sshArgv, streamsToUnixSockets, type OpenSshClient, type OpenSshDestination } from './openssh-client';

/**
 * The node's channels through a ControlMaster: each command or stream is a short-lived `ssh -S` client of
 * the master (a channel on its one connection, no new login). A UNIX socket is `-W /path` on ssh 9.4 and
 * later; older ssh cannot, so the master forwards a private local socket to it (`-L` on the login of a master
 * of ours, else `-O forward -L`) and each stream connects there. No TCP socket of ours is involved: pipes and UNIX sockets have no Nagle.
 */

export interface OpenSshChannels extends NodeChannels {
  /** Ends every command and stream still open, and the master's forwards made for us. */
  close(): Promise<void>;
}

export interface ChannelsContext {
  client: OpenSshClient;
  destination: OpenSshDestination;
  master: ControlMaster;
  env?: Record<string, string>;
  /** Where the forwarded sockets go, and those the master's own login made (node path -> local socket). */
  forwarded?: { dir: PrivateSocketDir; sockets: ReadonlyMap<string, string> };
  /** What the session holding the master found at the node's sockets (holder-probe.ts). */
  lookedAt?(path: string): Promise<SocketProbe | undefined>;
  /** What ssh said when a run failed, as an error. */
  failure(stderr: string, code: number | null, stage: 'streamlocal' | 'tcp' | 'exec', path?: string): SshError;
}

const STDERR_LIMIT = 8192;

/**
 * ssh's stdio as one stream; its stderr kept for the failure. Its stdin closing first (ssh gone) is reported
 * by ssh's exit, not as an error of the stream ("Premature close" would hide what the command said). With
 * `endWithStderr`, a stream whose end comes before any stderr ends only once ssh's stderr has closed, so
 * whoever reads the end has what the command complained of (sshd sends stderr before EOF; two pipes do not
 * keep that order).
 */
function stdioStream(child: ChildProcess, endWithStderr: boolean): { stream: Duplex; stderr: () => string } {
  const { stdin, stdout, stderr: errors } = child as ChildProcess & { stdin: Writable; stdout: Readable; stderr: Readable };
  let stderr = '';
  errors.on('data', (d: Buffer) => {
    if (stderr.length < STDERR_LIMIT) stderr += d.toString();
  });
  stdin.on('error', () => {});
  const stream = new Duplex({
    read: () => void stdout.resume(),
    write: (chunk: Buffer, _encoding, done) => (stdin.writable ? stdin.write(chunk, () => done()) : done()),
    final: (done) => {
      stdin.end();
      done();
    },
    destroy: (err, done) => {
      stdin.destroy();
      stdout.destroy();
      done(err);
    },
  });
  stdout.on('data', (d: Buffer) => stream.push(d) || stdout.pause());
  const stderrClosed = new Promise((r) => errors.once('close', r));
  const end = () => stream.push(null);
  stdout.once('end', () => {
    // A complaint already read is what the reader needs; with none yet, ssh's exit says there is none.
    if (!endWithStderr || stderr) end();
    else void stderrClosed.then(end);
  });
  return { stream, stderr: () => stderr };
}

/** Resolves once ssh runs (a missing binary rejects). */
const started = (child: ChildProcess) =>
  new Promise<void>((resolve, reject) => {
    child.once('spawn', resolve);
    child.once('error', reject);
  });

/** A stream that ends before a byte came is what sshd's refusal looks like here ("open failed": socket missing, not ours, or forwarding off). */
function endsEmptyAsRefused(stream: Duplex, where: string, detail: () => string): Duplex {
  let received = false;
  stream.once('data', () => (received = true));
  stream.once('end', () => {
    if (received) return;
    const said = detail().trim();
    stream.destroy(Object.assign(new Error(`sshd closed the stream to ${where} at once (open failed${said ? `: ${said}` : ''})`), { reason: OPEN_CONNECT_FAILED }) as ChannelOpenError);
  });
  return stream;
}

/** The `index`th forwarded socket in `dir`. */
export const forwardedSocketPath = (dir: PrivateSocketDir, index: number) => `${dir.socketPath}${index}`;

export function openSshChannels(ctx: ChannelsContext): OpenSshChannels {
  const { client, destination: d, master } = ctx;
  const children = new Set<ChildProcess>();
  let forwardDir = ctx.forwarded?.dir;
  const forwards = new Map([...(ctx.forwarded?.sockets ?? [])].map(([path, socket]) => [path, Promise.resolve(socket)]));
  let closed = false;

  const run = (flags: string[], command?: string): ChildProcess => {
    if (closed) throw new Error('the SSH connection was closed');
    const child = spawnSsh(client, sshArgv(d, [...master.muxFlags, ...flags], command), 'pipe', ctx.env);
    children.add(child);
    child.once('exit', () => children.delete(child));
    return child;
  };

  /** `-W` through the master; a failure ends the stream with what ssh said. */
  const forwardStdio = async (target: string, stage: 'streamlocal' | 'tcp', path?: string) => {
    const child = run(['-W', target]);
    await started(child);
    // Not ended with stderr: ssh -W lives on until both ends are closed.
    const io = stdioStream(child, false);
    child.once('exit', (code) => {
      if (code === 0 || code === null) return;
      const err = ctx.failure(io.stderr(), code, stage, path);
      // sshd's "open failed" is a refused open, which the socket bridge looks into (missing, not ours, forwarding off).
      if (err.code === 'STREAMLOCAL_REFUSED') Object.assign(err, { reason: OPEN_CONNECT_FAILED });
      setImmediate(() => io.stream.destroy(err));
    });
    return io;
  };

  /** The local socket the master forwards to `path` on the node (once per path). */
  const forwardedSocket = (path: string): Promise<string> => {
    let local = forwards.get(path);
    if (!local) {
      forwardDir ??= createPrivateSocketDir('s');
      const socket = forwardedSocketPath(forwardDir, forwards.size);
      local = runSsh(client, sshArgv(d, [...master.muxFlags, '-O', 'forward', '-L', `${socket}:${path}`]), ctx.env).then((r) => {
        if (r.code !== 0) {
          forwards.delete(path);
          throw ctx.failure(r.stderr, r.code, 'streamlocal', path);
        }
        return socket;
      });
      forwards.set(path, local);
    }
    return local;
  };

  return {
    refusalAtOpen: false,
    ...(ctx.lookedAt ? { lookedAt: ctx.lookedAt } : {}),
    exec: async (command) => {
      const child = run(['-T'], command);
      await started(child);
      const io = stdioStream(child, true);
      // 'close', not 'exit': the status once stderr has been read whole.
      const exit = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
      return Object.assign(io.stream, { stderr: child.stderr!, exit, close: () => void child.kill('SIGTERM') }) as ExecChannel;
    },
    openUnixSocket: async (path) => {
      if (streamsToUnixSockets(client)) {
        const io = await forwardStdio(path, 'streamlocal', path);
        return endsEmptyAsRefused(io.stream, path, io.stderr);
      }
      return endsEmptyAsRefused(connect(await forwardedSocket(path)), path, () => '');
    },
    openTcp: async (host, port) => (await forwardStdio(`${host.includes(':') ? `[${host}]` : host}:${port}`, 'tcp')).stream,
    close: async () => {
      if (closed) return;
      closed = true;
      for (const child of children) child.kill('SIGTERM');
      // Our forwards go with us; the master stays for the next run (ControlPersist).
      await Promise.all([...forwards].map(async ([path, local]) => {
        const socket = await local.catch(() => undefined);
        if (socket) await runSsh(client, sshArgv(d, [...master.muxFlags, '-O', 'cancel', '-L', `${socket}:${path}`]), ctx.env);
      }));
      forwardDir?.remove();
    },
  };
}
