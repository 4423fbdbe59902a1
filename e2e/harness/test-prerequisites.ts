/**
 * `npm test`'s first step (package.json pretest; .ci/run runs npm test too): make sure the programs
 * the tests run are there before any test starts. As root with apt-get it installs what is missing;
 * otherwise it stops at once with one message naming what to install, instead of a run that ends in
 * dozens of failed and skipped tests.
 */
import { spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { findsCommand, missingTools, packagesOf, type RequiredTool } from './required-tools';

export type PrerequisitePlan = { action: 'ready' } | { action: 'install'; packages: string[] } | { action: 'stop'; message: string };


export function planPrerequisites(state: { missing: readonly RequiredTool[]; isRoot: boolean; hasAptGet: boolean }): PrerequisitePlan {
  const { missing, isRoot, hasAptGet } = state;
  const packages = packagesOf(missing);
  const names = missing.map((t) => t.command).join(', ');
  if (!isRoot) {
    const why = 'must run as root (they start OpenSSH sshd and create test users)';
    return {
      action: 'stop',
      message: missing.length
        ? `npm test: the tests need ${names} and ${why}. Run it as root (sudo npm test), which installs them with apt-get, or install the packages ${packages.join(' ')} first.`
        : `npm test: the tests ${why}. Run it as root, e.g. sudo npm test.`,
    };
  }
  if (missing.length === 0) return { action: 'ready' };
  if (!hasAptGet) {
    return {
      action: 'stop',
      message: `npm test: the tests need ${names}, and there is no apt-get here to install them. Install these Debian packages (or your system's equivalents): ${packages.join(' ')}.`,
    };
  }
  return { action: 'install', packages };
}

function aptGet(args: string[], env: NodeJS.ProcessEnv): boolean {
  const run = spawnSync('apt-get', args, { stdio: ['ignore', 'inherit', 'inherit'], env: { ...env, DEBIAN_FRONTEND: 'noninteractive' } });
  return run.status === 0;
}

/** Returns the exit code: 0 when every tool is there (installed now or before). */
export function ensurePrerequisites(env: NodeJS.ProcessEnv = process.env): number {
  const plan = planPrerequisites({ missing: missingTools(undefined, env), isRoot: process.getuid?.() === 0, hasAptGet: findsCommand('apt-get', env) });
  if (plan.action === 'install') {
    console.error(`npm test: installing ${plan.packages.join(' ')} (apt-get), which the tests need`);
    if (aptGet(['update', '-qq'], env)) aptGet(['install', '-y', '-qq', '--no-install-recommends', ...plan.packages], env);
    const still = missingTools(undefined, env);
    if (still.length === 0) return 0;
    console.error(
      `npm test: apt-get did not install ${still.map((t) => t.command).join(', ')} (see its output above); ` +
        `install the packages ${packagesOf(still).join(' ')} by hand, then run npm test again.`,
    );
    return 1;
  }
  if (plan.action === 'stop') {
    console.error(plan.message);
    return 1;
  }
  return 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) process.exitCode = ensurePrerequisites();
