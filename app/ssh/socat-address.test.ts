import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { installSudoersRule, newSudoersPath } from '../../e2e/harness/sudoers-rule';
import { parseSocketProbe, socketProbeScript } from './remote-socket-probe';
import { sudoBridgeCommand, sudoersLine } from './socket-bridge';

const run = promisify(execFile);

/**
 * Every character socat's address lexer (1.7.4 here) or sudoers reads as syntax, and the shell's own: the
 * user's configured socket path may hold any of them, and must be reached as written.
 */
const SPECIAL = `it's a,b:c!!d%e|f(g[h]{i}"j\\k=l#m*n?o~&;$\`<>\tp`;

describe('a socket path holding characters socat reads as syntax', () => {
  const dir = mkdtempSync(join(tmpdir(), `ns ${SPECIAL}-`));
  const socketPath = join(dir, 'kubelet.sock');
  let server: Server | undefined;
  let sudoersPath: string | undefined;

  afterEach(async () => {
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    server = undefined;
    rmSync(socketPath, { force: true });
  });
  afterAll(async () => {
    if (sudoersPath) rmSync(sudoersPath, { force: true });
    rmSync(dir, { recursive: true, force: true });
  });

  /** A server on the path that echoes what it reads. */
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      server = createServer((s) => s.pipe(s));
      server.once('error', reject).listen(socketPath, resolve);
    });

  /** A socket file nobody listens on: its server was killed, so nothing removed the file. */
  const leaveStaleSocket = async () => {
    const child = spawn(process.execPath, ['-e', `require('net').createServer().listen(process.argv[1], () => console.log('up'))`, socketPath], { stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  };

  const probe = async () => parseSocketProbe(socketPath, (await run('sh', ['-c', socketProbeScript(socketPath)])).stdout);

  it('is seen listening by the node-side probe while a server listens on it', async () => {
    await listen();
    expect(await probe()).toMatchObject({ access: 'writable', listening: true });
  });

  it('is seen not listening by the probe once its server is gone and the file stays', async () => {
    await leaveStaleSocket();
    expect(await probe()).toMatchObject({ access: 'writable', listening: false });
  });

  /** Runs `command` with `sh` (as `user` when given), writes `input` to it and returns what came back. */
  const passBytes = (command: string, input: string, user?: string) =>
    new Promise<{ out: string; err: string; code: number | null }>((resolve) => {
      const child = user ? spawn('su', ['-s', '/bin/sh', user, '-c', command]) : spawn('sh', ['-c', command]);
      let out = '';
      let err = '';
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        // The server echoes; once all came back, end our side so socat ends too.
        if (out.length >= input.length) child.stdin.end();
      });
      child.stderr.on('data', (d: Buffer) => (err += d.toString()));
      child.once('close', (code) => resolve({ out, err, code }));
      child.stdin.write(input);
    });

  it('is reached by the sudo bridge command, run as it is without sudo', async () => {
    await listen();
    const command = sudoBridgeCommand(socketPath).replace(/^sudo -n /, '');
    expect(await passBytes(command, 'ping through socat\n')).toMatchObject({ out: 'ping through socat\n', code: 0 });
  });

  it('is reached through sudo by a user the offered sudoers line allows, and only that path', async () => {
    await listen();
    sudoersPath = newSudoersPath();
    await installSudoersRule(sudoersPath, `${sudoersLine('nobody', socketPath, undefined, '/usr/bin/socat')}\n`);
    expect(await passBytes(sudoBridgeCommand(socketPath), 'ping through sudo\n', 'nobody')).toMatchObject({ out: 'ping through sudo\n', code: 0 });
    // A path that is a prefix of the allowed one (what a comment in the rule would leave) is refused.
    const prefix = await passBytes(sudoBridgeCommand(socketPath.slice(0, socketPath.indexOf('#'))), '', 'nobody');
    expect(prefix.err).toMatch(/a password is required|not allowed/);
  });
});
