import type { Readable } from 'node:stream';
import { shellQuote } from '../remote-exec';
import { parseSocketProbe, socketProbeScript, type SocketProbe } from '../remote-socket-probe';

/**
 * The session that holds a master (`cat`, openssh-connection.ts) first looks at the node's kubelet sockets,
 * as the socket bridge must before its first stream over OpenSSH (a refused one just ends): one session per
 * node instead of two, each a fork and a shell on sshd. It prints each probe, then a line of its own, then
 * becomes `cat`. Whatever it did not say (a shell that refused the script, a connection gone) is left to the
 * bridge's own probe, whose errors say why.
 */

/** Ends each socket's probe: no `=` in it, so parseSocketProbe reads past it. */
const LOOKED = 'nodescope-looked';

/** The most the probes print before the marker (a login shell's noise included); past it they are not read. */
const MAX_PROBE_BYTES = 64 * 1024;

/** How long the probes may take (the bridge's own probe's deadline, runRemote's). */
const PROBE_TIMEOUT_MS = 10_000;

/** A script's lines as one line of sh: a line after `then`, `else` or `do` goes on it, any other after `;`. */
function oneLine(script: string): string {
  return script
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .reduce((all, line) => (all ? `${all}${/(^|\s)(then|else|do)$/.test(all) ? ' ' : '; '}${line}` : line), '');
}

/**
 * What the holder runs: the probe of each of `sockets` (paths the user configured, quoted), then `cat`. Handed
 * to sh as one quoted line, as the login shell may be fish or csh, which parse neither the script nor a
 * newline inside quotes.
 */
export function holderCommand(sockets: readonly string[]): string {
  if (sockets.length === 0) return 'cat';
  return `sh -c ${shellQuote(oneLine([...sockets.map((path) => `${socketProbeScript(path)}\necho ${LOOKED}`), 'exec cat'].join('\n')))}`;
}

/**
 * What the holder found at each of `sockets`, read from its stdout as it starts; each answer undefined when
 * it did not say in time. The bytes after it are `cat`'s echoes, which the caller reads on its own.
 */
export function readHolderProbes(stdout: Readable, sockets: readonly string[]): (path: string) => Promise<SocketProbe | undefined> {
  const said = new Promise<Map<string, SocketProbe>>((resolve) => {
    const found = new Map<string, SocketProbe>();
    if (sockets.length === 0) return resolve(found);
    let bytes = 0;
    let partial = '';
    let block: string[] = [];
    const done = () => {
      clearTimeout(timer);
      stdout.off('data', onData);
      stdout.off('close', done);
      resolve(found);
    };
    const onData = (chunk: Buffer) => {
      bytes += chunk.length;
      const lines = (partial + chunk.toString()).split('\n');
      partial = lines.pop()!;
      for (const line of lines) {
        if (line !== LOOKED) {
          block.push(line);
          continue;
        }
        const probe = parseSocketProbe(sockets[found.size]!, block.join('\n'));
        block = [];
        if (!probe) return done();
        found.set(probe.path, probe);
        if (found.size === sockets.length) return done();
      }
      if (bytes > MAX_PROBE_BYTES) done();
    };
    const timer = setTimeout(done, PROBE_TIMEOUT_MS);
    timer.unref();
    stdout.on('data', onData);
    stdout.once('close', done);
  });
  return async (path) => (await said).get(path);
}
