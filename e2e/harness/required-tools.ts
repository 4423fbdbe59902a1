import { accessSync, constants } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';

/**
 * The programs the tests run, with the Debian package that provides each: the one list that
 * `npm test` (scripts/test-prerequisites.ts, also run by .ci/run) installs from and the ssh
 * harness checks against.
 */
export interface RequiredTool {
  /** An absolute path where the tests use that exact path, else a name looked up on PATH as they run it. */
  command: string;
  debianPackage: string;
  /** The ssh harness needs it (the rest is needed by other tests). */
  harness?: true;
}

export const REQUIRED_TOOLS: readonly RequiredTool[] = [
  { command: '/usr/sbin/sshd', debianPackage: 'openssh-server', harness: true },
  { command: 'ssh-keygen', debianPackage: 'openssh-client', harness: true },
  { command: 'ssh', debianPackage: 'openssh-client' },
  { command: 'ssh-agent', debianPackage: 'openssh-client' },
  { command: 'ssh-add', debianPackage: 'openssh-client' },
  { command: '/usr/bin/sudo', debianPackage: 'sudo', harness: true },
  { command: 'visudo', debianPackage: 'sudo', harness: true },
  // The harness's sudoers rule names this exact path.
  { command: '/usr/bin/socat', debianPackage: 'socat', harness: true },
  { command: 'useradd', debianPackage: 'passwd', harness: true },
  // A few lines of Python fill a listener's accept queue, to make a connect hang as to a dead address.
  { command: 'python3', debianPackage: 'python3' },
  // The UI tests drive Debian's Chromium through playwright-core at this path.
  { command: '/usr/bin/chromium', debianPackage: 'chromium' },
];

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Whether `command` runs as the tests run it: the path itself, or the name somewhere on PATH. */
export function findsCommand(command: string, env: NodeJS.ProcessEnv = process.env): boolean {
  if (isAbsolute(command)) return isExecutable(command);
  return (env.PATH ?? '').split(delimiter).some((dir) => dir !== '' && isExecutable(join(dir, command)));
}

export function missingTools(tools: readonly RequiredTool[] = REQUIRED_TOOLS, env: NodeJS.ProcessEnv = process.env): RequiredTool[] {
  return tools.filter((t) => !findsCommand(t.command, env));
}

export const packagesOf = (tools: readonly RequiredTool[]): string[] => [...new Set(tools.map((t) => t.debianPackage))];

/** Fails up front, naming what to install, instead of deep inside a start-up step. */
export function checkRequiredTools(): void {
  const missing = missingTools(REQUIRED_TOOLS.filter((t) => t.harness));
  if (missing.length) {
    throw new Error(`the ssh harness needs ${missing.map((t) => t.command).join(', ')}; install them with: apt-get install ${packagesOf(missing).join(' ')}`);
  }
}
