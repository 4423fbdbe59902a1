// The CLI as installed: `npm install` builds it (the prepare script), bin/nodescope.js runs that build,
// and falls back to the TypeScript sources, saying so, when the build is missing or older than them.
// Each case works on a copy of the project, so the real checkout's build is never touched.
import { execFile, spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startSimulatedKubelet } from '../app/sim/kubelet-server';

const root = resolve(import.meta.dirname, '..');
let copy: string;

beforeEach(() => {
  copy = mkdtempSync(join(tmpdir(), 'nodescope-cli-build-'));
  for (const path of ['app', 'bin', 'proto', 'scripts/build-cli.ts', 'package.json']) cpSync(join(root, path), join(copy, path), { recursive: true });
  symlinkSync(realpathSync(join(root, 'node_modules')), join(copy, 'node_modules'));
});
afterEach(() => rmSync(copy, { recursive: true, force: true }));

const nodescope = (...args: string[]) => spawnSync(process.execPath, [join(copy, 'bin', 'nodescope.js'), ...args], { encoding: 'utf8' });
const prepare = () => {
  const r = spawnSync('npm', ['run', '--silent', 'prepare'], { cwd: copy, encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
};
/** Changes the decode command's summary in the copy's sources, as a developer editing app/ would. */
const editSources = () => {
  const main = join(copy, 'app', 'cli', 'main.ts');
  writeFileSync(main, readFileSync(main, 'utf8').replace('print captured pod bytes', 'EDITED: print captured pod bytes'));
};
const FALLBACK_NOTE = /^nodescope: running from the TypeScript sources \(slower start\): .+; npm run build:cli rebuilds it\n$/;

describe('the nodescope CLI as installed', () => {
  it('runs from the build that npm install made, with nothing on stderr', () => {
    prepare();
    const r = nodescope('--help');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('usage: nodescope <command>');
    expect(r.stderr).toBe('');
  });

  it('runs the edited sources, with a one-line note, when a source changed since the build', () => {
    prepare();
    editSources();
    const r = nodescope('--help');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('EDITED: print captured pod bytes');
    expect(r.stderr).toMatch(FALLBACK_NOTE);
    expect(r.stderr).toContain('app/cli/main.ts changed since dist/cli was built');

    // Rebuilt, the edit is in the build and the note is gone.
    prepare();
    const again = nodescope('--help');
    expect(again.stdout).toContain('EDITED: print captured pod bytes');
    expect(again.stderr).toBe('');
  });

  it('runs from the sources, with the note, when the CLI was never built (npm install --ignore-scripts)', () => {
    const r = nodescope('decode', '--help');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('usage: nodescope decode');
    expect(r.stderr).toMatch(FALLBACK_NOTE);
    expect(r.stderr).toContain('dist/cli is not built');
  });

  it("runs from the sources with a stderr whose reader is gone: the note is lost, not the run", async () => {
    const child = spawn(process.execPath, [join(copy, 'bin', 'nodescope.js'), 'decode', '--help'], { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stderr.destroy();
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    const code = await new Promise<number | null>((done) => child.on('close', done));
    expect(code).toBe(0);
    expect(stdout).toContain('usage: nodescope decode');
  });

  it('reads a kubelet from the sources too: GetPod over gRPC, loaded the way the unbuilt sources load it', async () => {
    const socketPath = join(copy, 'kubelet.sock');
    const sim = await startSimulatedKubelet({ socketPath, pods: 3, seed: 2 });
    try {
      const [uid] = [...sim.store.uids()];
      // Not spawnSync: the simulator answers from this process.
      const r = await promisify(execFile)(process.execPath, [join(copy, 'bin', 'nodescope.js'), 'get', '--local', socketPath, uid!, '-o', 'json'], { encoding: 'utf8' });
      expect(r.stderr).toMatch(FALLBACK_NOTE);
      expect((JSON.parse(r.stdout) as { metadata: { uid: string } }).metadata.uid).toBe(uid);
    } finally {
      await sim.stop();
    }
  });
});
