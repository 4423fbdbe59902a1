import { chmod, rename, rm, writeFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { DEFAULT_SUDO_TEMPLATE, sudoersLine } from '../../app/ssh/socket-bridge';
import { runCommand } from './run-command';

const SUDOERS_DIR = '/etc/sudoers.d';

/** The rule the client's default bridge needs: the same line Nodescope suggests to operators. */
export function socatSudoRule(user: string, socketPath: string): string {
  return `${sudoersLine(user, socketPath, DEFAULT_SUDO_TEMPLATE, '/usr/bin/socat')}\n`;
}

/** A fresh rule path; chosen before installing so cleanup can be armed first. */
export function newSudoersPath(): string {
  return `${SUDOERS_DIR}/nodescope-harness-${randomBytes(6).toString('hex')}`;
}

/**
 * Installs a validated rule at `finalPath`. The temp name contains a '.', which sudo ignores, so a
 * half-written or invalid file is never live.
 */
export async function installSudoersRule(finalPath: string, rule: string): Promise<void> {
  const tempPath = `${finalPath}.tmp`;
  await writeFile(tempPath, rule, { mode: 0o440 });
  try {
    await chmod(tempPath, 0o440);
    const check = await runCommand('visudo', ['-cf', tempPath]);
    if (check.code !== 0) throw new Error(`visudo rejected the harness sudoers rule ${JSON.stringify(rule)}: ${check.stdout}${check.stderr}`);
    await rename(tempPath, finalPath);
  } catch (err) {
    await rm(tempPath, { force: true });
    throw err;
  }
}
