import { runCommand } from './run-command';

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

async function userExists(name: string): Promise<boolean> {
  return (await runCommand('id', ['-u', name])).code === 0;
}

/**
 * Creates a login-capable user with bash and a locked-but-usable password ('*'): with UsePAM no,
 * sshd refuses accounts whose password field starts with '!', yet '*' still blocks password logins.
 */
export async function ensureSystemUser(name: string): Promise<void> {
  let lastError = '';
  for (let attempt = 0; attempt < 50; attempt++) {
    if (await userExists(name)) {
      await ensureUsablePassword(name);
      return;
    }
    const r = await runCommand('useradd', ['-m', '-s', '/bin/bash', '-p', '*', name]);
    if (r.code === 0 || r.code === USERADD_EXISTS) continue;
    lastError = r.stderr.trim();
    await new Promise((res) => setTimeout(res, 100 + Math.random() * 200));
  }
  throw new Error(`could not create test user ${name}: ${lastError}. Is the harness running as root?`);
}

async function ensureUsablePassword(name: string): Promise<void> {
  const shadow = await runCommand('getent', ['shadow', name]);
  if (shadow.stdout.split(':')[1] === '*') return;
  for (let attempt = 0; attempt < 50; attempt++) {
    const r = await runCommand('usermod', ['-p', '*', name]);
    if (r.code === 0) return;
    await new Promise((res) => setTimeout(res, 100 + Math.random() * 200));
  }
  throw new Error(`could not unlock test user ${name} (usermod -p '*' keeps failing)`);
}
