import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { createPrivateSocketDir, removeStaleSocketDirs } from './private-socket-dir';

const here = dirname(fileURLToPath(import.meta.url));
const runTs = resolve(here, '..', '..', 'bin', 'run-ts.js');
const base = mkdtempSync(join(tmpdir(), 'ns-base-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

/** A PID that certainly belongs to no running process: one that just exited. */
function deadPid(): number {
  return spawnSync(process.execPath, ['-e', '']).pid!;
}

describe('private socket directories', () => {
  it('are 0700, named after our PID, short enough for a socket path, and removable', () => {
    const d = createPrivateSocketDir('kubelet.sock', { XDG_RUNTIME_DIR: base });
    expect(d.dir.startsWith(join(base, `nodescope-${process.pid}-`))).toBe(true);
    expect(statSync(d.dir).mode & 0o777).toBe(0o700);
    expect(d.socketPath.length).toBeLessThan(104);
    d.remove();
    expect(existsSync(d.dir)).toBe(false);
  });

  it('are unguessable named pipes on Windows', () => {
    const a = createPrivateSocketDir('kubelet.sock', {}, 'win32');
    const b = createPrivateSocketDir('kubelet.sock', {}, 'win32');
    expect(a.socketPath).toMatch(new RegExp(`^\\\\\\\\\\.\\\\pipe\\\\nodescope-${process.pid}-[0-9a-f]{24}$`));
    expect(a.socketPath).not.toBe(b.socketPath);
  });

  it('fall back to the temp dir when XDG_RUNTIME_DIR would make the socket path too long', () => {
    const d = createPrivateSocketDir('kubelet.sock', { XDG_RUNTIME_DIR: join(base, 'x'.repeat(90)) });
    expect(d.dir.startsWith(join(tmpdir(), 'nodescope-'))).toBe(true);
    d.remove();
  });

  it('left behind by dead processes are swept, those of live processes kept', () => {
    const stale = join(base, `nodescope-${deadPid()}-abcdef`);
    const alive = join(base, `nodescope-${process.ppid}-abcdef`);
    const unrelated = join(base, 'something-else');
    for (const d of [stale, alive, unrelated]) mkdirSync(d);
    writeFileSync(join(stale, 'kubelet.sock'), '');
    expect(removeStaleSocketDirs(base)).toEqual([stale]);
    expect(existsSync(stale)).toBe(false);
    expect(existsSync(alive)).toBe(true);
    expect(existsSync(unrelated)).toBe(true);
  });

  it('are removed when the process is terminated by a signal', async () => {
    const script = join(base, 'hold-dir.mts');
    writeFileSync(
      script,
      `import { createPrivateSocketDir } from ${JSON.stringify(join(here, 'private-socket-dir.ts'))};\n` +
        `const d = createPrivateSocketDir('s.sock', { XDG_RUNTIME_DIR: ${JSON.stringify(base)} });\n` +
        `console.log(d.dir);\nsetInterval(() => {}, 1000);\n`,
    );
    const child = spawn(process.execPath, [runTs, script], { stdio: ['ignore', 'pipe', 'inherit'] });
    const dir = await new Promise<string>((res) => child.stdout.once('data', (b: Buffer) => res(b.toString().trim())));
    expect(existsSync(dir)).toBe(true);
    const exited = new Promise<NodeJS.Signals | null>((res) => child.once('exit', (_code, signal) => res(signal)));
    child.kill('SIGTERM');
    expect(await exited).toBe('SIGTERM');
    expect(existsSync(dir)).toBe(false);
  });

  it("leave a signal to the program's own handler, set before them, which ends the process its own way", async () => {
    const script = join(base, 'own-handler.mts');
    writeFileSync(
      script,
      `import { createPrivateSocketDir } from ${JSON.stringify(join(here, 'private-socket-dir.ts'))};\n` +
        `process.once('SIGINT', () => setTimeout(() => process.exit(7), 50));\n` +
        `const d = createPrivateSocketDir('s.sock', { XDG_RUNTIME_DIR: ${JSON.stringify(base)} });\n` +
        `console.log(d.dir);\nsetInterval(() => {}, 1000);\n`,
    );
    const child = spawn(process.execPath, [runTs, script], { stdio: ['ignore', 'pipe', 'inherit'] });
    const dir = await new Promise<string>((res) => child.stdout.once('data', (b: Buffer) => res(b.toString().trim())));
    const exited = new Promise<[number | null, NodeJS.Signals | null]>((res) => child.once('exit', (code, signal) => res([code, signal])));
    child.kill('SIGINT');
    expect(await exited).toEqual([7, null]);
    expect(existsSync(dir)).toBe(false);
  });
});
