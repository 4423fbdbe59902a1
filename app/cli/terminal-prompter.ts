/**
 * SSH questions asked on the controlling terminal (/dev/tty, as ssh does), so they work while stdout
 * is piped into a file. Without a terminal nothing can be asked: unknown host keys are refused (the
 * connection's error says how to trust them up front), and passphrases are declined.
 */
import { openSync } from 'node:fs';
import { ReadStream, WriteStream } from 'node:tty';
import { cleanUpOnStopSignal } from '../process/stop-signals';
import type { HostKeyAnswer, SshPrompter } from '../ssh/ssh-prompter';
import { terminalLine, terminalText } from './terminal-text';

interface Terminal {
  input: ReadStream;
  output: WriteStream;
}

function openTerminal(): Terminal | null {
  try {
    const fd = openSync('/dev/tty', 'r+');
    return { input: new ReadStream(fd), output: new WriteStream(fd) };
  } catch {
    return null;
  }
}

/**
 * Reads one line; with `hidden`, nothing is echoed (passphrases). null on Ctrl-D; Ctrl-C interrupts. The prompt
 * may come from the server (keyboard-interactive): its control characters are shown, not sent.
 */
function readLine(t: Terminal, prompt: string, hidden: boolean): Promise<string | null> {
  // Echo goes off before the prompt shows: a passphrase typed the moment the prompt appears must not be echoed.
  t.input.setRawMode(true);
  t.output.write(terminalLine(prompt));
  t.input.resume();
  return new Promise((resolve) => {
    let text = '';
    // A kill (or the terminal's hangup) during the question must not leave the terminal without echo: the
    // question ends unanswered and the terminal is restored before the signal ends the process.
    const release = cleanUpOnStopSignal(() => finish(null));
    const finish = (value: string | null) => {
      release();
      t.input.off('data', onData);
      t.input.setRawMode(false);
      t.input.pause();
      t.output.write('\n');
      resolve(value);
    };
    const onData = (chunk: Buffer) => {
      for (const ch of chunk.toString('utf8')) {
        if (ch === '\r' || ch === '\n') return finish(text);
        if (ch === '\u0004') return finish(null);
        if (ch === '\u0003') {
          // Raw mode turned Ctrl-C into a character: it interrupts the command, as it does ssh at its prompt,
          // rather than go on as a declined question to a failed login. The signal's clean-up (above) ends the
          // question, once the signal is taken: a command that handles SIGINT sees the question end after it.
          t.input.off('data', onData);
          return void process.kill(process.pid, 'SIGINT');
        }
        if (ch === '\u007f' || ch === '\b') {
          if (text && !hidden) t.output.write('\b \b');
          text = text.slice(0, -1);
        } else {
          text += ch;
          if (!hidden) t.output.write(terminalLine(ch));
        }
      }
    };
    t.input.on('data', onData);
  });
}

export function terminalPrompter(): SshPrompter & { close(): void } {
  let terminal: Terminal | null | undefined;
  const tty = () => (terminal === undefined ? (terminal = openTerminal()) : terminal);
  // One question at a time: a jump host and the target may ask together.
  let queue: Promise<unknown> = Promise.resolve();
  const serial = <T>(ask: () => Promise<T>): Promise<T> => {
    const next = queue.then(ask, ask);
    queue = next.catch(() => undefined);
    return next;
  };

  return {
    hostKey: (info) =>
      serial(async (): Promise<HostKeyAnswer> => {
        const t = tty();
        // The connection's error says what to do, once; nothing is printed here.
        if (!t) return 'cannot-ask';
        const where = info.port === 22 ? info.host : `[${info.host}]:${info.port}`;
        t.output.write(terminalText(`The authenticity of host '${where}' can't be established.\n${info.keyType} key fingerprint is ${info.fingerprint}.\n`));
        const answer = await readLine(t, info.recordsAccepted ? 'Continue connecting? ssh records the key in known_hosts (yes / no): ' : 'Continue connecting? (yes = remember / once / no): ', false);
        const a = answer?.trim().toLowerCase();
        return a === 'yes' ? 'remember' : a === 'once' && !info.recordsAccepted ? 'once' : 'refuse';
      }),
    passphrase: (info) =>
      serial(async () => {
        const t = tty();
        if (!t) return null;
        if (info.retryReason) t.output.write(`${terminalText(info.retryReason)}\n`);
        return readLine(t, `Enter passphrase for key '${info.keyPath}': `, true);
      }),
    keyboardInteractive: (info) =>
      serial(async () => {
        const t = tty();
        if (!t) return null;
        // Name, instructions and prompts are the server's words: shown, never obeyed by the terminal.
        if (info.name) t.output.write(`${terminalText(info.name)}\n`);
        if (info.instructions) t.output.write(`${terminalText(info.instructions)}\n`);
        const answers: string[] = [];
        for (const p of info.prompts) {
          const answer = await readLine(t, p.prompt, !p.echo);
          if (answer === null) return null;
          answers.push(answer);
        }
        return answers;
      }),
    close() {
      // Both streams share the fd; the input closes it.
      terminal?.input.destroy();
    },
  };
}
