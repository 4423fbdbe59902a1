import { runCommand, type CommandResult } from './run-command';

/**
 * Fixed account names shared by every harness on the machine. Parallel test files may create them
 * at the same moment, so creation tolerates "already exists" and retries while /etc/passwd is locked.
 */
export const HARNESS_USERS = {
  operator: 'nsharness-op',
  noSudo: 'nsharness-nosudo',
  jump: 'nsharness-jump',
} as const;

const USERADD_EXISTS = 9;
const USERDEL_MISSING = 6;

/** Runs a passwd-database command until it stops failing for a lock held by a parallel harness. */
async function retryWhileLocked(what: string, run: () => Promise<CommandResult>, acceptable: number[] = []): Promise<void> {
  let last: CommandResult | undefined;
  for (let attempt = 0; attempt < 50; attempt++) {
    last = await run();
    if (last.code === 0 || acceptable.includes(last.code)) return;
    await new Promise((res) => setTimeout(res, 100 + Math.random() * 200));
  }
  throw new Error(`${what} kept failing: ${last?.stderr.trim()}. Is the harness running as root?`);
}

async function passwordField(name: string): Promise<string | undefined> {
  const shadow = await runCommand('getent', ['shadow', name]);
  return shadow.code === 0 ? shadow.stdout.split(':')[1] : undefined;
}

/**
 * Creates a login-capable user with bash and a locked-but-usable password ('*'): with UsePAM no,
 * sshd refuses accounts whose password field starts with '!', yet '*' still blocks password logins.
 */
export async function ensureSystemUser(name: string): Promise<void> {
  await retryWhileLocked(`useradd ${name}`, () => runCommand('useradd', ['-m', '-s', '/bin/bash', '-p', '*', name]), [USERADD_EXISTS]);
  if ((await passwordField(name)) !== '*') await retryWhileLocked(`usermod -p '*' ${name}`, () => runCommand('usermod', ['-p', '*', name]));
}

/** A user that exists only for one harness, with a real password, for password/keyboard-interactive tests. */
export async function createPasswordUser(name: string, password: string): Promise<void> {
  await retryWhileLocked(`useradd ${name}`, () => runCommand('useradd', ['-m', '-s', '/bin/bash', name]));
  await retryWhileLocked(`chpasswd for ${name}`, () => runCommand('chpasswd', [], { input: `${name}:${password}\n` }));
}

export async function removeUser(name: string): Promise<void> {
  await retryWhileLocked(`userdel ${name}`, () => runCommand('userdel', ['-r', name]), [USERDEL_MISSING]);
}
