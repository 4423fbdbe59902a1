import { existsSync } from 'node:fs';
import type { AnyAuthMethod, AuthenticationType, AuthHandlerMiddleware, KeyboardInteractiveCallback, ParsedKey, Prompt } from 'ssh2';
import { DEFAULT_AUTH_METHODS, type AuthMethodName } from './auth-methods';
import { NEEDS_OPENSSH } from './config-refusals';
import { agentLimitedTo } from './identity-agent';
import { declaredKeyType, identityPublicKey, loadIdentityKey } from './identity-key';
import type { SshPrompter } from './ssh-prompter';

/**
 * Decides which SSH auth method to try next, in ssh(1)'s order (PreferredAuthentications; by
 * default agent and identity files, keyboard-interactive, password), only the methods allowed.
 * One attempt per key keeps us under sshd's MaxAuthTries,
 * keys are only decrypted (and their passphrase asked) when the server still accepts
 * publickey, and methods the server does not offer are skipped.
 */

export interface AuthPlan {
  username: string;
  /** The host logged in to (HostName), named in prompts as `username@host`. */
  host: string;
  /** ssh-agent socket or pipe; undefined: no agent. */
  agentPath: string | undefined;
  identityFiles: string[];
  /** IdentitiesOnly: use only agent keys that match `identityFiles`. */
  identitiesOnly?: boolean;
  /** Methods allowed, in order; default ssh's. A method not listed is never tried, nor its secret asked. */
  methods?: readonly AuthMethodName[];
  /** PubkeyAcceptedAlgorithms: keys (files and agent) of other types are not offered; default all. */
  pubkeyAlgorithms?: readonly string[];
  /** Configured login features only OpenSSH has (e.g. `CertificateFile ~/.ssh/x-cert.pub`), reported as skipped. */
  unsupported?: readonly string[];
  prompter: SshPrompter;
}

export interface AuthSession {
  handler: AuthHandlerMiddleware;
  /** What was attempted so far, for error messages, e.g. `agent`, `publickey ~/.ssh/id_ed25519`. */
  tried: string[];
  /** Why keys were skipped (missing file, passphrase declined...). */
  skipped: string[];
  /** The user cancelled a keyboard-interactive or password prompt: stop, do not report wrong credentials. */
  declined(): boolean;
}

/** `label` names the attempt in error messages, e.g. `publickey ~/.ssh/id_ed25519`. */
type Step = { method: AuthenticationType; label: string; build: () => Promise<AnyAuthMethod | null> };

/** An RSA key may sign with any of its three algorithms; other types with their own name. */
function keyTypeAccepted(type: string, accepted: readonly string[] | undefined): boolean {
  if (!accepted) return true;
  return type === 'ssh-rsa' ? accepted.some((a) => ['rsa-sha2-512', 'rsa-sha2-256', 'ssh-rsa'].includes(a)) : accepted.includes(type);
}

export function createAuthSession(plan: AuthPlan): AuthSession {
  const tried: string[] = [];
  const skipped: string[] = (plan.unsupported ?? []).map((f) => `${f}: ${NEEDS_OPENSSH}`);
  const { username, prompter } = plan;
  const login = { user: username, host: plan.host };
  const label = `${username}@${plan.host}`;
  let userDeclined = false;

  const askKeyboard = (name: string, instructions: string, prompts: Prompt[], finish: KeyboardInteractiveCallback) => {
    if (prompts.length === 0) return finish([]);
    prompter
      .keyboardInteractive({ name: name || label, login, instructions, prompts: prompts.map((p) => ({ prompt: p.prompt, echo: !!p.echo })) })
      .then(
        (answers) => {
          if (answers === null) userDeclined = true;
          finish(answers ?? []);
        },
        () => finish([]),
      );
  };

  const publickey: Step[] = [];
  if (plan.agentPath) {
    const agentPath = plan.agentPath;
    publickey.push({
      method: 'agent',
      label: 'agent',
      build: async () => {
        const typeOk = (k: ParsedKey) => keyTypeAccepted(k.type, plan.pubkeyAlgorithms);
        if (!plan.identitiesOnly) return { type: 'agent', username, agent: plan.pubkeyAlgorithms ? agentLimitedTo(agentPath, typeOk) : agentPath };
        const wanted = (await Promise.all(plan.identityFiles.map(identityPublicKey))).filter((k): k is Buffer => k !== null);
        const offered = (k: ParsedKey) => typeOk(k) && wanted.some((w) => w.equals(k.getPublicSSH()));
        return wanted.length ? { type: 'agent', username, agent: agentLimitedTo(agentPath, offered) } : null;
      },
    });
  }
  for (const keyPath of plan.identityFiles) {
    publickey.push({
      method: 'publickey',
      label: `publickey ${keyPath}`,
      build: async () => {
        if (!existsSync(keyPath)) return (skipped.push(`${keyPath}: no such file`), null);
        // ssh would offer the certificate beside the key, or the FIDO key; ssh2 can do neither.
        if (existsSync(`${keyPath}-cert.pub`)) skipped.push(`certificate ${keyPath}-cert.pub: ${NEEDS_OPENSSH} (the plain key is tried)`);
        const type = (await declaredKeyType(keyPath)) ?? '';
        if (type.startsWith('sk-')) return (skipped.push(`${keyPath}: FIDO security key (${type}) ${NEEDS_OPENSSH}`), null);
        const loaded = await loadIdentityKey(keyPath, prompter);
        if ('skipped' in loaded) {
          skipped.push(loaded.skipped);
          return null;
        }
        if (!keyTypeAccepted(loaded.key.type, plan.pubkeyAlgorithms)) {
          skipped.push(`${keyPath}: key type ${loaded.key.type} not in PubkeyAcceptedAlgorithms`);
          return null;
        }
        return { type: 'publickey', username, key: loaded.key };
      },
    });
  }
  const keyboard: Step = {
    method: 'keyboard-interactive',
    label: 'keyboard-interactive',
    build: async () => ({
      type: 'keyboard-interactive',
      username,
      prompt: (name, instructions, _lang, prompts, finish) => askKeyboard(name, instructions, prompts, finish),
    }),
  };
  const password: Step = {
    method: 'password',
    label: 'password',
    build: async () => {
      const answers = await prompter.keyboardInteractive({
        name: label,
        login,
        instructions: '',
        prompts: [{ prompt: `${label}'s password: `, echo: false }],
      });
      if (answers === null || answers[0] === undefined) {
        userDeclined = true;
        return null;
      }
      return { type: 'password', username, password: answers[0] };
    },
  };
  const byMethod: Record<AuthMethodName, Step[]> = { publickey, 'keyboard-interactive': [keyboard], password: [password] };
  const steps = (plan.methods ?? DEFAULT_AUTH_METHODS).flatMap((m) => byMethod[m]);

  let next = 0;
  /** Each step is prepared once (a passphrase or password asked once), however often it is offered. */
  const built = new Map<Step, AnyAuthMethod | null>();
  const handler: AuthHandlerMiddleware = (methodsLeft, partial, callback) => {
    // ssh2 passes null before the first attempt: the server's list is not known yet.
    const offered = (m: AuthenticationType) => !methodsLeft || methodsLeft.includes(m === 'agent' ? 'publickey' : m);
    // A partial success (sshd AuthenticationMethods, e.g. password,publickey) opens the next factor: start over
    // with what the server offers now, as ssh does, since a key tried before the password was not yet allowed.
    if (partial) next = 0;
    const advance = async (): Promise<AnyAuthMethod | false> => {
      while (next < steps.length && !userDeclined) {
        const step = steps[next++]!;
        if (!offered(step.method)) continue;
        let method: AnyAuthMethod | null;
        try {
          method = built.has(step) ? built.get(step)! : await step.build();
          built.set(step, method);
        } catch (err) {
          // One method failing to prepare (a prompt that broke, an unreadable key) must not end the login.
          skipped.push(`${step.label}: ${(err as Error).message}`);
          built.set(step, null);
          continue;
        }
        if (method) {
          if (!tried.includes(step.label)) tried.push(step.label);
          return method;
        }
      }
      return false;
    };
    // ssh2 accepts `false` for "no more methods" although its typings omit it.
    const done = callback as (next: AnyAuthMethod | false) => void;
    advance().then(done, () => done(false));
  };
  return { handler, tried, skipped, declined: () => userDeclined };
}
