/**
 * What an OpenSSH client asks its askpass program, told apart by the prompt text (argv[1]) and the
 * SSH_ASKPASS_PROMPT hint. Texts are OpenSSH 9.2's (sshconnect.c, sshconnect2.c, readpass.c, mux.c,
 * ssh-pkcs11.c; /work/shared/docs/openssh-transport.md section 3). Since OpenSSH 8.5 every
 * keyboard-interactive prompt, which is the server's own text, is prefixed with `(user@host) `; it is
 * recognised first, so a server cannot dress a question up as a local one (a passphrase prompt, say).
 */

export type AskpassPrompt =
  /** A host key ssh does not know yet: ssh asks `yes/no/[fingerprint]`. */
  | { kind: 'hostKey'; host: string; port: number; keyType: string; fingerprint: string; text: string }
  /** A yes/no question from ssh itself: CheckHostIP mismatch, ControlMaster ask, AddKeysToAgent ask, UpdateHostKeys. */
  | { kind: 'confirm'; text: string }
  | { kind: 'passphrase'; keyPath: string }
  | { kind: 'password'; user: string; host: string }
  /** A server's keyboard-interactive question (an OTP, a PAM password), for this login. */
  | { kind: 'keyboardInteractive'; user: string; host: string; prompt: string }
  /** A FIDO or PKCS#11 PIN: a secret typed locally. */
  | { kind: 'pin'; text: string }
  /** Not a question: "touch your security key"; ssh kills the askpass with SIGTERM when done. */
  | { kind: 'notice'; text: string }
  /** Anything else (a password change, an older client's prompts): asked as a hidden answer, in ssh's words. */
  | { kind: 'other'; text: string };

const HOST_KEY = /^The authenticity of host '(.+?) \(.*?\)' can't be established/;
const HOST_KEY_FINGERPRINT = /^(\S+) key fingerprint is (\S+?)\.?$/m;
const KBD_INT = /^\(([^@()\s]*)@([^()\s]+)\) ([\s\S]*)$/;
const PASSPHRASE = /^Enter passphrase for key '(.+)': $/;
const PASSWORD = /^(\S+)@(\S+)'s password: $/;
const PIN = /^Enter PIN for /;
const YES_NO = /\(yes\/no\)\? $|\(yes\/no\): $/;

/** `[h]:p` as ssh writes a host on a port other than 22. */
function hostAndPort(text: string): { host: string; port: number } {
  const m = /^\[(.+)\]:(\d+)$/.exec(text);
  return m ? { host: m[1]!, port: Number(m[2]) } : { host: text, port: 22 };
}

export function classifyAskpassPrompt(text: string, hint: string | undefined): AskpassPrompt {
  if (hint === 'none') return { kind: 'notice', text };
  if (hint === 'confirm') return { kind: 'confirm', text };
  const kbd = KBD_INT.exec(text);
  if (kbd) return { kind: 'keyboardInteractive', user: kbd[1]!, host: kbd[2]!, prompt: kbd[3]! };
  const hostKey = HOST_KEY.exec(text);
  const fingerprint = HOST_KEY_FINGERPRINT.exec(text);
  if (hostKey && fingerprint) {
    return { kind: 'hostKey', ...hostAndPort(hostKey[1]!), keyType: fingerprint[1]!, fingerprint: fingerprint[2]!, text };
  }
  const passphrase = PASSPHRASE.exec(text);
  if (passphrase) return { kind: 'passphrase', keyPath: passphrase[1]! };
  const password = PASSWORD.exec(text);
  if (password) return { kind: 'password', user: password[1]!, host: password[2]! };
  if (PIN.test(text)) return { kind: 'pin', text };
  if (YES_NO.test(text)) return { kind: 'confirm', text };
  return { kind: 'other', text };
}
