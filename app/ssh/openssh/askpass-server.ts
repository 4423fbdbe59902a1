/**
 * Brings the questions of a spawned `ssh` to the user through the same SshPrompter the built-in
 * transport uses (the app's prompt dialogs, the CLI's terminal prompter). ssh runs our askpass helper
 * for every prompt (SSH_ASKPASS_REQUIRE=force); the helper asks this server over a UNIX socket in a
 * private 0700 directory and prints the answer for ssh. Decisions stay ssh's: a host key is answered
 * "yes"/"no" and ssh itself checks and writes known_hosts under the user's StrictHostKeyChecking.
 *
 * The CLI uses this too, with the terminal prompter, rather than letting ssh read /dev/tty: prompts look
 * and behave the same with or without a terminal, one at a time across a jump host and its target, and
 * Ctrl-C at a prompt cancels it (the terminal prompter reads in raw mode and declines).
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type Socket } from 'node:net';
import type { PrivateSocketDir } from '../private-socket-dir';
import type { HopLabel } from '../ssh-errors';
import { createPrivateSocketDir } from '../private-socket-dir';
import type { KeyboardInteractiveQuestion, SshPrompter } from '../ssh-prompter';
import { writeAskpassHelper } from './askpass-helper';
import { classifyAskpassPrompt, type AskpassPrompt } from './askpass-prompt';

export interface AskpassSession {
  /** Add to the environment of the spawned ssh (no secret in it: see `startAskpass`). */
  env: Record<string, string>;
  /** Stops answering; helpers still waiting exit non-zero, which ssh takes as "cancelled". */
  close(): Promise<void>;
}

/** A request is one prompt; ssh caps prompts far below this. */
const MAX_REQUEST = 64 * 1024;

interface HelperRequest {
  token: string;
  prompt: string;
  hint: string;
  /** The ssh process that ran the helper: a second passphrase ask from the same ssh means the first was wrong. */
  ssh: number;
}

function parseRequest(line: string): HelperRequest | null {
  try {
    const r = JSON.parse(line) as Record<string, unknown>;
    if (typeof r.token !== 'string' || typeof r.prompt !== 'string' || typeof r.hint !== 'string') return null;
    return { token: r.token, prompt: r.prompt, hint: r.hint, ssh: typeof r.ssh === 'number' ? r.ssh : 0 };
  } catch {
    return null;
  }
}

/** `user@host` labels name the login for questions that do not name one (a PIN, a yes/no). */
function loginOf(label: string): KeyboardInteractiveQuestion['login'] {
  const at = label.lastIndexOf('@');
  return at > 0 ? { user: label.slice(0, at), host: label.slice(at + 1) } : { user: '', host: label };
}

function sameToken(given: string, expected: Buffer): boolean {
  const g = Buffer.from(given);
  return g.length === expected.length && timingSafeEqual(g, expected);
}

export async function startAskpass(prompter: SshPrompter, opts: { label: string }): Promise<AskpassSession> {
  if (process.platform === 'win32') {
    // ssh there runs SSH_ASKPASS as a Windows program, and our helper is a sh script on a UNIX socket.
    throw new Error('ssh prompts through Nodescope are not available on Windows yet: use the built-in transport (--ssh builtin), or an ssh-agent with your keys loaded');
  }
  const dir: PrivateSocketDir = createPrivateSocketDir('askpass.sock');
  const program = writeAskpassHelper(dir.dir);
  // Only a helper run by our ssh knows this, so no other process that finds the socket can pose a question
  // to the user and read the answer. It sits in ssh's environment, which is fine: it is not the user's
  // secret, it is useless once this session closes, and whoever can read ssh's environment runs as this
  // user and could read our memory too.
  const token = randomBytes(32).toString('base64url');
  const expected = Buffer.from(token);
  const passphraseAsks = new Map<string, number>();
  const login = loginOf(opts.label);

  const askOne = (question: string, echo: boolean, instructions = '', who = login) =>
    prompter.keyboardInteractive({ name: '', login: who, instructions, prompts: [{ prompt: question, echo }] }).then((a) => a?.[0] ?? null);

  /** The line ssh reads, or null to cancel (the helper exits non-zero). */
  const answer = async (p: AskpassPrompt, ssh: number): Promise<string | null> => {
    switch (p.kind) {
      case 'hostKey': {
        // ssh has no "accept once": on "yes" it records the key as its config says (UserKnownHostsFile), so
        // the question says so and offers no 'once' (a 'once' all the same is a yes, recorded).
        const decision = await prompter.hostKey({ host: p.host, port: p.port, keyType: p.keyType, fingerprint: p.fingerprint, recordsAccepted: true });
        return decision === 'once' || decision === 'remember' ? 'yes' : decision === 'refuse' ? 'no' : null;
      }
      case 'confirm': {
        const reply = await askOne('Answer yes or no: ', true, p.text.trim());
        return reply === null ? null : reply.trim().toLowerCase() === 'yes' ? 'yes' : 'no';
      }
      case 'passphrase': {
        const key = `${ssh}\0${p.keyPath}`;
        const attempt = (passphraseAsks.get(key) ?? 0) + 1;
        passphraseAsks.set(key, attempt);
        return prompter.passphrase({ keyPath: p.keyPath, attempt, ...(attempt > 1 ? { retryReason: `Wrong passphrase for ${p.keyPath}` } : {}) });
      }
      case 'password':
        return askOne(`${p.user}@${p.host}'s password: `, false, '', { user: p.user, host: p.host });
      case 'keyboardInteractive':
        // ssh does not tell askpass whether the server asked for echo: hidden is the safe side.
        return askOne(p.prompt, false, '', { user: p.user, host: p.host });
      case 'pin':
      case 'other':
        return askOne(p.text, false);
      case 'notice':
        return '';
    }
  };

  const connections = new Set<Socket>();
  const server = createServer((sock) => {
    connections.add(sock);
    sock.on('close', () => connections.delete(sock));
    sock.on('error', () => sock.destroy());
    let buffered = '';
    sock.setEncoding('utf8');
    const onData = (chunk: string) => {
      buffered += chunk;
      const nl = buffered.indexOf('\n');
      if (nl < 0) {
        if (buffered.length > MAX_REQUEST) sock.destroy();
        return;
      }
      sock.off('data', onData);
      const req = parseRequest(buffered.slice(0, nl));
      if (!req || !sameToken(req.token, expected)) return void sock.destroy();
      answer(classifyAskpassPrompt(req.prompt, req.hint || undefined), req.ssh).then(
        (reply) => (reply === null ? sock.destroy() : sock.end(JSON.stringify({ answer: reply }))),
        () => sock.destroy(),
      );
    };
    sock.on('data', onData);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(dir.socketPath, () => resolve());
  });

  return {
    env: {
      SSH_ASKPASS: program,
      SSH_ASKPASS_REQUIRE: 'force',
      // Clients before 8.4 know no SSH_ASKPASS_REQUIRE and use askpass only with a DISPLAY; a user's real
      // one is kept (X11 forwarding needs it).
      ...(process.env.DISPLAY ? {} : { DISPLAY: 'nodescope-askpass:0' }),
      NODESCOPE_ASKPASS_SOCKET: dir.socketPath,
      NODESCOPE_ASKPASS_TOKEN: token,
    },
    close: async () => {
      for (const c of connections) c.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      dir.remove();
    },
  };
}

/** Windows' ssh runs SSH_ASKPASS as a Windows program, which our helper is not: there ssh asks on its console (null). */
export const askpassFor = (prompter: SshPrompter, label: HopLabel): Promise<AskpassSession | null> =>
  process.platform === 'win32' ? Promise.resolve(null) : startAskpass(prompter, { label: `${label.user}@${label.host}` });
