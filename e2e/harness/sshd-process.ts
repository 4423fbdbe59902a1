import { spawn, type ChildProcess } from 'node:child_process';
import { access, mkdir, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { descendantsOf, isAlive, killDescendants, signal, waitForExit } from './process-tree';

export interface SshdInstance {
  pid: number;
  port: number;
  configPath: string;
  logs(): string;
  /** SIGKILLs every per-connection sshd process and what it runs; the listener keeps serving. */
  killConnections(): Promise<void>;
  /**
   * SIGSTOPs every per-connection sshd process and what it runs, as a hung sshd or a cut link looks from the
   * client: TCP still takes the bytes, nothing answers. The listener keeps serving new connections.
   */
  pauseConnections(): void;
  /** SIGCONTs what pauseConnections() stopped (and any other descendant). */
  resumeConnections(): void;
  stop(): Promise<void>;
}

export interface SshdSpec {
  /** Private directory for this sshd's config, pid file and log. */
  dir: string;
  address: string;
  /** sshd_config keywords in order; a value list repeats the keyword. */
  settings: Record<string, string | string[]>;
  /** Runs sshd inside this network namespace (`ip netns exec`), where the address lives. */
  netns?: string;
  /** A fixed port, for an address nobody else uses (a namespace's own); default a free one, retried on a bind race. */
  port?: number;
  /**
   * With netns: a directory bind-mounted over another in sshd's own mount namespace (ip netns exec makes
   * one), so every host can serve its socket at the same path, as real nodes do.
   */
  bindMount?: { source: string; target: string };
}

const SSHD = '/usr/sbin/sshd';
const START_TIMEOUT_MS = 10_000;
const BIND_ATTEMPTS = 8;

async function pickFreePort(address: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, address, () => {
      const addr = server.address();
      server.close(() => (addr && typeof addr === 'object' ? resolve(addr.port) : reject(new Error('no port'))));
    });
  });
}

function renderConfig(settings: SshdSpec['settings']): string {
  const lines: string[] = [];
  for (const [key, value] of Object.entries(settings)) {
    for (const v of Array.isArray(value) ? value : [value]) lines.push(`${key} ${v}`);
  }
  return lines.join('\n') + '\n';
}

/**
 * Starts `sshd -D -e` and resolves once it logs that it is listening. A free port can be taken by
 * a parallel test between probing and binding, so a bind failure retries with another port.
 */
export async function startSshd(spec: SshdSpec): Promise<SshdInstance> {
  await mkdir('/run/sshd', { recursive: true, mode: 0o755 }); // privilege separation chroot
  await mkdir(spec.dir, { recursive: true, mode: 0o700 });
  let lastLog = '';
  for (let attempt = 0; attempt < (spec.port === undefined ? BIND_ATTEMPTS : 1); attempt++) {
    const port = spec.port ?? (await pickFreePort(spec.address));
    const configPath = join(spec.dir, 'sshd_config');
    const pidPath = join(spec.dir, 'sshd.pid');
    await writeFile(
      configPath,
      renderConfig({
        Port: String(port),
        ListenAddress: spec.address,
        PidFile: pidPath,
        ...spec.settings,
      }),
      { mode: 0o600 },
    );
    const argv = [SSHD, '-D', '-e', '-f', configPath];
    // `ip netns exec` execs sshd in place (no fork), so the child's pid is sshd's own.
    const mount = spec.bindMount ? ['/bin/sh', '-c', 'mount --bind "$1" "$2" && shift 2 && exec "$@"', 'sh', spec.bindMount.source, spec.bindMount.target] : [];
    const [file, ...args] = spec.netns ? ['ip', 'netns', 'exec', spec.netns, ...mount, ...argv] : argv;
    const child = spawn(file!, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    const log: string[] = [];
    // A spawn failure arrives as 'error' and then 'exit'; keep it in the log the caller reports.
    child.on('error', (err) => log.push(`[harness] cannot run ${SSHD}: ${err.message}\n`));
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => log.push(chunk));
    const outcome = await waitUntilListening(child, log, spec.address, port);
    if (outcome === 'listening') {
      const sshd = instance(child, port, configPath, log);
      // sshd writes its pid file just after logging; the cleanup watchdog relies on that file.
      await waitForFile(pidPath, child).catch(async (err: unknown) => {
        // Nobody else knows this listener yet: stop it here or it outlives the test run.
        await sshd.stop();
        throw err;
      });
      return sshd;
    }
    lastLog = log.join('');
    if (!/Address already in use/.test(lastLog)) break;
  }
  throw new Error(`sshd did not start on ${spec.address}:\n${lastLog}`);
}

async function waitForFile(path: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (!(await access(path).then(() => true, () => false))) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`sshd did not write its pid file ${path}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

function waitUntilListening(child: ChildProcess, log: string[], address: string, port: number): Promise<'listening' | 'exited'> {
  const ready = `Server listening on ${address} port ${port}.`;
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      log.push(`\n[harness] sshd not listening after ${START_TIMEOUT_MS} ms; killed\n`);
      child.kill('SIGKILL');
    }, START_TIMEOUT_MS);
    const onData = () => {
      if (!log.join('').includes(ready)) return;
      cleanup();
      resolve('listening');
    };
    const onExit = () => {
      cleanup();
      resolve('exited');
    };
    const cleanup = () => {
      clearTimeout(timer);
      child.stderr!.off('data', onData);
      child.off('exit', onExit);
      child.off('error', onExit);
    };
    child.stderr!.on('data', onData);
    child.once('exit', onExit);
    child.once('error', onExit);
  });
}

function instance(child: ChildProcess, port: number, configPath: string, log: string[]): SshdInstance {
  const pid = child.pid!;
  const killConnections = () => killDescendants(pid);
  let stopped: Promise<void> | undefined;
  return {
    pid,
    port,
    configPath,
    logs: () => log.join(''),
    killConnections,
    pauseConnections: () => {
      for (const p of descendantsOf(pid)) signal(p, 'SIGSTOP');
    },
    resumeConnections: () => {
      for (const p of descendantsOf(pid)) signal(p, 'SIGCONT');
    },
    stop: () =>
      (stopped ??= (async () => {
        // Sessions outlive the listener in OpenSSH, so end them too.
        await killConnections();
        if (isAlive(pid)) {
          const exited = new Promise((r) => child.once('exit', r));
          signal(pid, 'SIGTERM');
          await Promise.race([exited, new Promise((r) => setTimeout(r, 3_000))]);
          if (isAlive(pid)) signal(pid, 'SIGKILL');
          await waitForExit([pid], 5_000);
        }
      })()),
  };
}
