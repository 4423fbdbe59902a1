import { execFile } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

/** The first `ssh` on PATH, or undefined: then the built-in config reader is used instead of `ssh -G`. */
export function findSshBinary(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const names = process.platform === 'win32' ? ['ssh.exe'] : ['ssh'];
  for (const dir of (env.PATH ?? '').split(delimiter).filter(Boolean)) {
    for (const name of names) {
      const candidate = join(dir, name);
      try {
        accessSync(candidate, constants.X_OK);
        return candidate;
      } catch {
        // not here
      }
    }
  }
  return undefined;
}

export interface SshGOutput {
  /** keyword -> every line's value, in order (identityfile repeats). */
  values: Map<string, string[]>;
  /** ssh's own "Warning: ..." lines, e.g. an -i file that does not exist. */
  warnings: string[];
}

/** A host picker resolves every alias at once; a few ssh processes at a time is plenty. */
const MAX_CONCURRENT = 4;
let running = 0;
const waiting: (() => void)[] = [];

async function withSlot<T>(run: () => Promise<T>): Promise<T> {
  if (running >= MAX_CONCURRENT) await new Promise<void>((r) => waiting.push(r));
  running++;
  try {
    return await run();
  } finally {
    running--;
    waiting.shift()?.();
  }
}

/**
 * The same ask while one is running (or waiting for a slot) shares its run, never an earlier run's answer:
 * nodes opened together ask it of their one bastion, and 100 of them through one bastion spent seconds on it.
 */
const inFlight = new WeakMap<NodeJS.ProcessEnv, Map<string, Promise<SshGOutput>>>();

/**
 * Runs `ssh -G` (print the evaluated config, connect nowhere): OpenSSH's own evaluator, with Match
 * exec, Include, canonicalisation and every default exactly as ssh would use them.
 */
export function runSshG(binary: string, args: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<SshGOutput> {
  let asks = inFlight.get(env);
  if (!asks) inFlight.set(env, (asks = new Map()));
  const key = JSON.stringify([binary, ...args]);
  let ask = asks.get(key);
  if (!ask) {
    ask = withSlot(() => spawnSshG(binary, args, env)).finally(() => asks.delete(key));
    asks.set(key, ask);
  }
  // A copy each: callers refine the values in place (app/ssh/ssh-config.ts).
  return ask.then(({ values, warnings }) => ({ values: new Map([...values].map(([k, v]) => [k, [...v]])), warnings: [...warnings] }));
}

function spawnSshG(binary: string, args: readonly string[], env: NodeJS.ProcessEnv): Promise<SshGOutput> {
  return new Promise((resolve, reject) => {
    execFile(binary, ['-G', ...args], { env, timeout: 15_000, maxBuffer: 4 << 20 }, (err, stdout, stderr) => {
      if (err) {
        const detail = stderr.trim() || err.message;
        reject(new Error(`ssh -G could not evaluate the ssh config: ${detail}. Fix the config file named above, or the options given.`));
        return;
      }
      const values = new Map<string, string[]>();
      for (const line of stdout.split('\n')) {
        const space = line.indexOf(' ');
        if (space <= 0) continue;
        const key = line.slice(0, space);
        values.set(key, [...(values.get(key) ?? []), line.slice(space + 1)]);
      }
      const warnings = stderr.split('\n').filter((l) => l.startsWith('Warning:'));
      resolve({ values, warnings });
    }).stdin?.end();
  });
}
