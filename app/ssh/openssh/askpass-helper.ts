import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The program ssh runs as SSH_ASKPASS. ssh execs it with the prompt as argv[1] and reads the answer's
 * first line from its stdout (non-zero exit = cancel). It forwards the prompt to Nodescope's askpass
 * server over a private UNIX socket and prints what the user answered.
 *
 * It is plain CommonJS with no imports but Node's own, because it runs outside Nodescope's bundle: in
 * a packaged app there is no `node`, so, as VS Code does, Electron's own binary runs it as Node
 * (ELECTRON_RUN_AS_NODE=1 with process.execPath); under plain Node, process.execPath is node itself.
 */
const HELPER_SOURCE = `'use strict';
const net = require('node:net');
const hint = process.env.SSH_ASKPASS_PROMPT || '';
// A notice ("touch your security key") needs no answer; ssh kills it with SIGTERM when done.
if (hint === 'none') process.exit(0);
const sock = net.connect(process.env.NODESCOPE_ASKPASS_SOCKET || '');
let reply = '';
sock.setEncoding('utf8');
sock.on('data', (d) => { reply += d; });
sock.on('error', () => { process.exitCode = 1; });
sock.on('close', () => {
  let answer;
  try { answer = JSON.parse(reply).answer; } catch { answer = undefined; }
  if (typeof answer !== 'string') { process.exitCode = 1; return; }
  process.stdout.write(answer + '\\n');
});
sock.write(JSON.stringify({ token: process.env.NODESCOPE_ASKPASS_TOKEN || '', prompt: process.argv[2] || '', hint, ssh: process.ppid }) + '\\n');
`;

/** POSIX sh single quoting: the paths (an app under "Application Support", say) may hold spaces or quotes. */
const shQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/**
 * Writes the helper into `dir` (the caller's private 0700 directory) and returns the path of the
 * program to put in SSH_ASKPASS: a sh wrapper, because ssh execs SSH_ASKPASS directly, with no arguments
 * of ours. ELECTRON_RUN_AS_NODE is set here, not in ssh's environment, so a ProxyCommand that happens to
 * be an Electron app is not turned into Node.
 */
export function writeAskpassHelper(dir: string, execPath = process.execPath): string {
  const script = join(dir, 'askpass-helper.cjs');
  const program = join(dir, 'askpass.sh');
  writeFileSync(script, HELPER_SOURCE, { mode: 0o700 });
  writeFileSync(program, `#!/bin/sh\nELECTRON_RUN_AS_NODE=1 exec ${shQuote(execPath)} ${shQuote(script)} "$@"\n`, { mode: 0o700 });
  return program;
}
