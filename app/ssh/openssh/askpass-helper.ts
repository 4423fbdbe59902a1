import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The program ssh runs as SSH_ASKPASS. ssh execs it with the prompt as argv[1] and reads the answer's
 * first line from its stdout (non-zero exit = cancel). It forwards the prompt to Nodescope's askpass
 * server over a private UNIX socket and prints what the user answered.
 *
 * It is plain CommonJS with no imports but Node's own, because it runs outside Nodescope's bundle, with
 * whatever runs Nodescope: under Node, node itself; under a development Electron, Electron as Node
 * (ELECTRON_RUN_AS_NODE=1, as VS Code does); the packaged app has Electron's RunAsNode fuse off, so there
 * the app binary itself is started with ASKPASS_FLAG and its main process runs the helper (main/main.ts).
 * The prompt is the last argument in all three; the helper exits explicitly, as Electron's main would not.
 */
const HELPER_SOURCE = `'use strict';
const net = require('node:net');
const hint = process.env.SSH_ASKPASS_PROMPT || '';
// A notice ("touch your security key") needs no answer; ssh kills it with SIGTERM when done.
if (hint === 'none') process.exit(0);
const done = (code) => process.exit(code);
const sock = net.connect(process.env.NODESCOPE_ASKPASS_SOCKET || '');
let reply = '';
sock.setEncoding('utf8');
sock.on('data', (d) => { reply += d; });
sock.on('error', () => done(1));
sock.on('close', () => {
  let answer;
  try { answer = JSON.parse(reply).answer; } catch { answer = undefined; }
  if (typeof answer !== 'string') return done(1);
  process.stdout.write(answer + '\\n', () => done(0));
});
sock.write(JSON.stringify({ token: process.env.NODESCOPE_ASKPASS_TOKEN || '', prompt: process.argv[process.argv.length - 1] || '', hint, ssh: process.ppid }) + '\\n');
`;

/** POSIX sh single quoting: the paths (an app under "Application Support", say) may hold spaces or quotes. */
const shQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** Given to the packaged app's binary (before the helper's path) to run as the askpass helper. */
export const ASKPASS_FLAG = '--nodescope-askpass';

/** The helper script when the process was started as askpass by ssh (`<app> --nodescope-askpass <script> <prompt>`). */
export function askpassScriptFromArgv(argv: readonly string[]): string | undefined {
  const at = argv.indexOf(ASKPASS_FLAG);
  return at >= 0 ? argv[at + 1] : undefined;
}

/** How to start the helper under the running program: see the top of this file. */
function helperCommand(script: string, execPath: string, runtime: { electron: boolean; defaultApp: boolean }): string {
  if (!runtime.electron) return `exec ${shQuote(execPath)} ${shQuote(script)} "$@"`;
  if (runtime.defaultApp) return `ELECTRON_RUN_AS_NODE=1 exec ${shQuote(execPath)} ${shQuote(script)} "$@"`;
  return `exec ${shQuote(execPath)} ${ASKPASS_FLAG} ${shQuote(script)} "$@"`;
}

/**
 * Writes the helper into `dir` (the caller's private 0700 directory) and returns the path of the
 * program to put in SSH_ASKPASS: a sh wrapper, because ssh execs SSH_ASKPASS directly, with no arguments
 * of ours. ELECTRON_RUN_AS_NODE is set here, not in ssh's environment, so a ProxyCommand that happens to
 * be an Electron app is not turned into Node.
 */
export function writeAskpassHelper(
  dir: string,
  execPath = process.execPath,
  runtime = { electron: process.versions.electron !== undefined, defaultApp: (process as { defaultApp?: boolean }).defaultApp === true },
): string {
  const script = join(dir, 'askpass-helper.cjs');
  const program = join(dir, 'askpass.sh');
  writeFileSync(script, HELPER_SOURCE, { mode: 0o700 });
  writeFileSync(program, `#!/bin/sh\n${helperCommand(script, execPath, runtime)}\n`, { mode: 0o700 });
  return program;
}
