// Outputs that cannot be written, as operators make them: `| head` gone before the output, `> /dev/full`, a
// stderr whose reader left. Each ends as its own case says, never with an unhandled 'error' event.
import { spawn, type StdioOptions } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { podBytesListToKubectl } from '../pod/kubectl-json';
import { webPodBytes } from '../pod/testdata/handmade-pods';
import { EXIT } from './exit-codes';
import { nodescope } from './testing/run-nodescope';

const BIN = resolve(import.meta.dirname, '../../bin/nodescope.js');
const dir = mkdtempSync(join(tmpdir(), 'nodescope-output-failures-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the CLI with `stdio`; `closed` is the pipe whose reader is gone before the CLI starts. */
function run(args: string[], stdio: StdioOptions, closed?: 'stdout' | 'stderr'): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [BIN, ...args], { stdio });
  if (closed) child[closed]!.destroy();
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((done) => child.on('close', (code) => done({ code, stdout, stderr })));
}

describe('an output that cannot be written', () => {
  it('a stdout whose reader is gone (| head) ends quietly with 0', async () => {
    const r = await run(['mask', 'tree'], ['ignore', 'pipe', 'pipe'], 'stdout');
    expect(r.stderr).not.toMatch(/Unhandled|Error|^\s+at /m);
    expect(r.code, r.stderr).toBe(EXIT.ok);
  }, 30_000);

  it('a stdout on a full disk says so and exits 6, without a stack trace', async () => {
    const full = openSync('/dev/full', 'w');
    const r = await run(['mask', 'tree'], ['ignore', full, 'pipe']);
    closeSync(full);
    expect(r.stderr).toMatch(/^nodescope: cannot write the output: the disk is full; what was written is incomplete: send the output elsewhere and run the command again$/m);
    expect(r.stderr).not.toMatch(/Unhandled|ENOSPC|^\s+at /m);
    expect(r.code).toBe(EXIT.output);
  }, 30_000);

  it('a stderr whose reader is gone loses only the messages: the output is whole and the exit 0', async () => {
    const file = join(dir, 'pods.json');
    writeFileSync(file, podBytesListToKubectl([webPodBytes()]).bytes);
    const expected = await nodescope(['export', file]);
    expect(expected.code, expected.stderr).toBe(EXIT.ok);
    // The note "offline snapshot ..." goes to the closed stderr before the pods go to stdout.
    const r = await run(['export', file], ['ignore', 'pipe', 'pipe'], 'stderr');
    expect(r.code).toBe(EXIT.ok);
    expect(r.stdout).toBe(expected.stdout);
  }, 30_000);
});
