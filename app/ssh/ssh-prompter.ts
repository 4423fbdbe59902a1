/**
 * The questions an SSH connection may need a human to answer. The CLI answers them on the
 * terminal, the desktop UI with dialogs; the transport only ever talks to this interface.
 * Every method may resolve to "no answer" (`'refuse'` / `null`), which cancels that step.
 */

/** Only unknown keys are asked about: a changed or revoked key is refused without asking. */
export interface HostKeyQuestion {
  /** Host name as the user wrote it (or the HostKeyAlias), and the port. */
  host: string;
  port: number;
  /** e.g. `ssh-ed25519`. */
  keyType: string;
  /** `SHA256:...` exactly as `ssh-keygen -lf` prints it. */
  fingerprint: string;
  /**
   * The client asking records an accepted key in known_hosts itself (OpenSSH has no "accept once"): 'once'
   * is not offered, and an answer of 'once' would be recorded all the same.
   */
  recordsAccepted?: true;
}

/**
 * 'refuse': the user said no. 'cannot-ask': nobody is there to answer (no terminal); the connection
 * fails as when asking is not allowed, saying how to trust the key beforehand.
 */
export type HostKeyAnswer = 'once' | 'remember' | 'refuse' | 'cannot-ask';

export interface PassphraseQuestion {
  keyPath: string;
  /** 1 for the first ask; higher after a wrong passphrase. */
  attempt: number;
  /** Why we ask again, e.g. "Wrong passphrase for ~/.ssh/id_ed25519". Absent on the first ask. */
  retryReason?: string;
}

export interface KeyboardInteractiveQuestion {
  /** Who asks, e.g. `operator@node-1` (servers often leave `name` empty). */
  name: string;
  /**
   * The login that asks: the user and host (HostName, as ssh names it) of the hop being logged in to. Behind
   * a jump host that is the jump host while its own login asks, so a password is typed for the right host.
   */
  login: { user: string; host: string };
  instructions: string;
  prompts: { prompt: string; echo: boolean }[];
}

export interface SshPrompter {
  hostKey(info: HostKeyQuestion): Promise<HostKeyAnswer>;
  /** null: the user declined; the key is skipped and the next method is tried. */
  passphrase(info: PassphraseQuestion): Promise<string | null>;
  /** One answer per prompt, in order; null: the user declined. Also used for password auth. */
  keyboardInteractive(info: KeyboardInteractiveQuestion): Promise<string[] | null>;
}
